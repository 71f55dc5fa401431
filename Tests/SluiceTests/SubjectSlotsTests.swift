import Sluice
import SluiceTesting
import Testing

/// A subject keeps its subscribers in slots, in subscription order; a cancel leaves a hole and
/// the slots are compacted once half are holes (O(1) amortised subscribe and cancel). Each
/// subscription finds its entry by the slot it was told: these tests move entries around and
/// check that every request, cancel and delivery still reaches the right one.
@Suite("Subjects: subscribers in slots", .timeLimit(.minutes(12)))
struct SubjectSlotsTests {
    /// Subscribes `count` recorders, each logging its number before each value into `order`.
    static func subscribe(
        _ count: Int, from first: Int = 0, to subject: PassthroughSubject<Int, Never>, order: Locked<[Int]>,
        demand: Subscribers.Demand = .unlimited
    ) -> [RecordingSubscriber<Int, Never>] {
        (first..<first + count).map { number in
            let recorder = RecordingSubscriber<Int, Never>(initialDemand: demand)
            recorder.onValue { _ in
                order.withLock { $0.append(number) }
                return .none
            }
            subject.subscribe(recorder)
            return recorder
        }
    }

    @Test("cancels in any order, with subscriptions between them: the others still get each value, in subscription order")
    func cancelsKeepOrder() {
        let subject = PassthroughSubject<Int, Never>()
        defer { subject.send(completion: .finished) }
        let order = Locked<[Int]>([])
        var recorders = Self.subscribe(20, to: subject, order: order)
        // Cancel 15 of the 20 in a scrambled order (more than half: the slots are compacted),
        // subscribing five more half-way.
        let cancelled = [7, 0, 19, 3, 12, 5, 18, 1, 9, 14, 2, 16, 11, 6, 17]
        for number in cancelled.prefix(8) { recorders[number].cancel() }
        recorders += Self.subscribe(5, from: 20, to: subject, order: order)
        for number in cancelled.dropFirst(8) { recorders[number].cancel() }
        subject.send(1)
        let live = (0..<25).filter { !cancelled.contains($0) }
        #expect(order.withLock { $0 } == live, "each live subscriber once, in subscription order")
        for number in cancelled { #expect(recorders[number].values.isEmpty, "subscriber \(number) was cancelled") }
        for number in live { #expect(recorders[number].values == [1]) }
    }

    @Test("a request after the slots moved reaches its own subscriber, and only it")
    func requestsAfterCompaction() {
        let subject = PassthroughSubject<Int, Never>()
        defer { subject.send(completion: .finished) }
        let order = Locked<[Int]>([])
        let recorders = Self.subscribe(10, to: subject, order: order, demand: .none)
        for number in 0..<6 { recorders[number].cancel() }  // compacts: 6, 7, 8, 9 move to slots 0-3
        recorders[8].request(.max(1))
        subject.send(1)
        #expect(order.withLock { $0 } == [8])
        recorders[6].request(.max(2))
        recorders[9].request(.max(1))
        subject.send(2)
        subject.send(3)
        #expect(recorders[6].values == [2, 3])
        #expect(recorders[7].values.isEmpty)
        #expect(recorders[8].values == [1])
        #expect(recorders[9].values == [2])
        #expect(recorders.allSatisfy { $0.violations.isEmpty })
    }

    @Test("a request made after cancelling, once others moved into the cancelled slots, reaches nobody")
    func requestsAfterCancelReachNobody() {
        let subject = PassthroughSubject<Int, Never>()
        defer { subject.send(completion: .finished) }
        let order = Locked<[Int]>([])
        let recorders = Self.subscribe(4, to: subject, order: order, demand: .none)
        recorders[0].cancel()
        recorders[1].cancel()  // compacts: 2 and 3 move into slots 0 and 1
        recorders[0].request(.max(1))  // the recorder still holds its subscription and forwards
        recorders[1].request(.max(1))
        subject.send(1)
        #expect(order.withLock { $0 }.isEmpty, "no request of a cancelled subscription gives anyone demand")
        recorders[3].request(.max(1))
        subject.send(2)
        #expect(order.withLock { $0 } == [3])
    }

    @Test("a cancel after the slots moved ends its own subscriber, and a second cancel is harmless")
    func cancelsAfterCompaction() {
        let subject = PassthroughSubject<Int, Never>()
        defer { subject.send(completion: .finished) }
        let order = Locked<[Int]>([])
        let recorders = Self.subscribe(8, to: subject, order: order)
        for number in [1, 3, 5, 7] { recorders[number].cancel() }  // compacts: 0, 2, 4, 6 in slots 0-3
        recorders[4].cancel()
        recorders[4].cancel()
        recorders[1].cancel()  // cancelled before the slots moved: harmless
        subject.send(1)
        #expect(order.withLock { $0 } == [0, 2, 6])
    }

    @Test("subscribers that cancel themselves while a value goes out do not disturb the others")
    func cancelsDuringDelivery() {
        let subject = PassthroughSubject<Int, Never>()
        defer { subject.send(completion: .finished) }
        let order = Locked<[Int]>([])
        let recorders = (0..<12).map { number in
            let recorder = RecordingSubscriber<Int, Never>()
            recorder.onValue { [weak recorder] _ in
                order.withLock { $0.append(number) }
                if number.isMultiple(of: 2) { recorder?.cancel() }  // every other one, from inside
                return .none
            }
            subject.subscribe(recorder)
            return recorder
        }
        subject.send(1)
        subject.send(2)
        #expect(order.withLock { $0 } == Array(0..<12) + [1, 3, 5, 7, 9, 11])
        #expect(recorders.allSatisfy { $0.violations.isEmpty })
    }
}
