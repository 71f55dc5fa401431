import Dispatch
import Sluice
import SluiceTesting
import Synchronization
import Testing

/// `values` takes elements delivered inside `request(_:)` through a lock-free fast lane and
/// everything else through its locked state machine; these tests mix the two and race them.
@Suite(.serialized, .timeLimit(.minutes(12))) struct ValuesFastLaneTests {
    @Test func elementsDeliveredInsideRequestAndLaterFromAnotherThreadAllArriveInOrder() async {
        let count = 10_000
        let publisher = MixedDeliveryPublisher(count: count) { index in index % 3 == 0 }
        var received: [Int] = []
        for await element in publisher.values { received.append(element.value) }
        #expect(received == Array(0..<count))
        #expect(publisher.maximumOutstanding == 1)
    }

    @Test func elementsRacingTheIteratorAfterRequestAreEachDeliveredOnceInOrder() async {
        // Every element is sent from another thread right after `request(_:)` returns, so it
        // lands while the iterator checks the lane, settles it or suspends.
        let count = 10_000
        let publisher = MixedDeliveryPublisher(count: count) { _ in false }
        var received: [Int] = []
        for await element in publisher.values { received.append(element.value) }
        #expect(received == Array(0..<count))
        #expect(publisher.maximumOutstanding == 1)
    }

    @Test func anElementLeftBehindByABrokenLoopIsReleased() async {
        for _ in 0..<1_000 {
            let publisher = MixedDeliveryPublisher(count: 10) { _ in false }
            do {
                var iterator = publisher.values.makeAsyncIterator()
                _ = await iterator.next()
                _ = await iterator.next()
            }
            // The iterator is gone; the third element may still be on its way to the lane.
        }
        // LiveElement elements are deinitialised when released; none may stay alive.
        await waitUntil { LiveElement.alive.load(ordering: .acquiring) == 0 }
        #expect(LiveElement.alive.load(ordering: .acquiring) == 0)
    }

    @Test func theLastElementAndTheCompletionDeliveredInsideOneRequestEndTheLoopWithoutAnotherRequest() async {
        let publisher = ScriptedPublisher { subscriber in
            _ = subscriber.receive(7)
            subscriber.receive(completion: .finished)
        }
        var iterator = publisher.values.makeAsyncIterator()
        #expect(await iterator.next() == 7)
        #expect(await iterator.next() == nil)
        #expect(publisher.requests == [.max(1)])
    }

    @Test(.exitTest) func twoElementsDeliveredInsideOneRequestTrapNamingTheRule() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let publisher = ScriptedPublisher { subscriber in
                _ = subscriber.receive(1)
                _ = subscriber.receive(2)
            }
            var iterator = publisher.values.makeAsyncIterator()
            _ = await iterator.next()
        }.map { result in
            let message = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(message.contains("beyond the demand it requested (rule 2)"))
        }
    }
}

/// A publisher whose subscription runs `script` with the subscriber inside every
/// `request(_:)`, and records the requests.
final class ScriptedPublisher: Publisher, Sendable {
    typealias Output = Int
    typealias Failure = Never

    let script: @Sendable (AnySubscriber<Int, Never>) -> Void
    private let recorded = Locked<[Subscribers.Demand]>([])

    init(_ script: @escaping @Sendable (AnySubscriber<Int, Never>) -> Void) { self.script = script }

    var requests: [Subscribers.Demand] { recorded.withLock { $0 } }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        let downstream = AnySubscriber(subscriber)
        subscriber.receive(subscription: Link(self, downstream))
    }

    /// Safe to share: its one mutable field is only read and written under `publisher`'s lock.
    final class Link: Subscription, @unchecked Sendable {
        let publisher: ScriptedPublisher
        let downstream: AnySubscriber<Int, Never>

        init(_ publisher: ScriptedPublisher, _ downstream: AnySubscriber<Int, Never>) {
            self.publisher = publisher
            self.downstream = downstream
        }

        func request(_ demand: Subscribers.Demand) {
            publisher.recorded.withLock { $0.append(demand) }
            publisher.script(downstream)
        }

        func cancel() {}
    }
}

/// Counts live instances, so a test can check that nothing delivered is leaked.
final class LiveElement: Sendable {
    static let alive = Atomic<Int>(0)
    let value: Int
    init(_ value: Int) {
        self.value = value
        LiveElement.alive.add(1, ordering: .relaxed)
    }
    deinit { LiveElement.alive.subtract(1, ordering: .relaxed) }
}

/// Polls `condition`, yielding between polls; for conditions that other threads settle soon.
func waitUntil(_ condition: () -> Bool) async {
    for _ in 0..<100_000 where !condition() { await Task.yield() }
}

/// A cold publisher of `count` tracked elements numbered from 0 that serves each request of
/// one element either inside `request(_:)` (when `synchronously(index)`) or from another
/// thread just after it returns. It records the highest outstanding demand it saw.
final class MixedDeliveryPublisher: Publisher, Sendable {
    typealias Output = LiveElement
    typealias Failure = Never

    let count: Int
    let synchronously: @Sendable (Int) -> Bool
    private let highWater = Locked(0)

    init(count: Int, synchronously: @escaping @Sendable (Int) -> Bool) {
        self.count = count
        self.synchronously = synchronously
    }

    var maximumOutstanding: Int { highWater.withLock { $0 } }

    func receive<S: Subscriber>(subscriber: S) where S.Input == LiveElement, S.Failure == Never {
        subscriber.receive(subscription: Link(self, AnySubscriber(subscriber)))
    }

    /// Safe to share: all mutable state is behind `state`'s lock, and deliveries are serial
    /// because each one waits for the request that the previous one made room for.
    final class Link: Subscription, @unchecked Sendable {
        struct State {
            var next = 0
            var outstanding = 0
            var downstream: AnySubscriber<LiveElement, Never>?
        }
        let publisher: MixedDeliveryPublisher
        let state: Locked<State>

        init(_ publisher: MixedDeliveryPublisher, _ downstream: AnySubscriber<LiveElement, Never>) {
            self.publisher = publisher
            state = Locked(State(downstream: downstream))
        }

        func request(_ demand: Subscribers.Demand) {
            let (index, outstanding) = state.withLock { state -> (Int, Int) in
                state.outstanding += demand.max ?? 1
                return (state.next, state.outstanding)
            }
            publisher.highWater.withLock { $0 = Swift.max($0, outstanding) }
            if publisher.synchronously(index) {
                deliver()
            } else {
                DispatchQueue.global().async { self.deliver() }
            }
        }

        private func deliver() {
            let step = state.withLock { state -> (AnySubscriber<LiveElement, Never>, Int, Bool)? in
                guard let downstream = state.downstream, state.outstanding > 0 else { return nil }
                state.outstanding -= 1
                state.next += 1
                let last = state.next == publisher.count
                if last { state.downstream = nil }
                return (downstream, state.next - 1, last)
            }
            guard let (downstream, value, last) = step else { return }
            _ = downstream.receive(LiveElement(value))
            if last { downstream.receive(completion: .finished) }
        }

        func cancel() { state.withLock { $0.downstream = nil } }
    }
}
