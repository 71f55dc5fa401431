import Sluice
import SluiceExt
import SluiceTesting
import Testing

@Suite("amb (CombineExt)")
struct AmbTests {
    @Test("The first publisher to send a value wins: only its signals go downstream, its completion included")
    func winnerByValue() {
        let first = PassthroughSubject<Int, Never>()
        let second = PassthroughSubject<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        first.amb(second).subscribe(recorder)
        second.send(1)
        first.send(10)
        second.send(2)
        first.send(completion: .finished)
        #expect(recorder.values == [1, 2])
        #expect(recorder.completion == nil)
        second.send(completion: .finished)
        #expect(recorder.completion == .finished)
        #expect(recorder.violations.isEmpty)
    }

    @Test("A completion wins too, before any demand, and cancels the other publisher")
    func winnerByCompletion() {
        let first = ControllablePublisher<Int, Oops>()
        let second = ControllablePublisher<Int, Oops>()
        defer { first.detachAll(); second.detachAll() }
        let recorder = RecordingSubscriber<Int, Oops>(initialDemand: .none)
        Publishers.Amb(first: first, second: second).subscribe(recorder)
        second.subscriptions[0].send(completion: .failure(Oops()))
        #expect(recorder.completion == .failure(Oops()))
        #expect(first.subscriptions[0].cancelCount == 1)
        #expect(second.subscriptions[0].cancelCount == 0)
        first.subscriptions[0].send(completion: .finished)
        #expect(recorder.events.count == 2)  // the subscription and the one completion
    }

    @Test("Every loser is cancelled once the race is decided, and later signals of losers are dropped")
    func losersCancelled() {
        let publishers = (0..<3).map { _ in ControllablePublisher<Int, Never>() }
        defer { publishers.forEach { $0.detachAll() } }
        let recorder = RecordingSubscriber<Int, Never>()
        publishers.amb().subscribe(recorder)
        publishers[1].subscriptions[0].send(5)
        #expect(publishers.map { $0.subscriptions[0].cancelCount } == [1, 0, 1])
        publishers[0].subscriptions[0].send(6)
        publishers[2].subscriptions[0].send(completion: .finished)
        publishers[1].subscriptions[0].send(7)
        #expect(recorder.values == [5, 7])
        #expect(recorder.completion == nil)
        recorder.cancel()
    }

    @Test("Cancelling before the race is decided cancels every publisher; after, the winner")
    func downstreamCancel() {
        let racing = (0..<2).map { _ in ControllablePublisher<Int, Never>() }
        let decided = (0..<2).map { _ in ControllablePublisher<Int, Never>() }
        defer { (racing + decided).forEach { $0.detachAll() } }
        let early = RecordingSubscriber<Int, Never>()
        let late = RecordingSubscriber<Int, Never>()
        racing[0].amb(racing[1]).subscribe(early)
        decided[0].amb(decided[1]).subscribe(late)
        early.cancel()
        decided[0].subscriptions[0].send(1)
        late.cancel()
        decided[0].subscriptions[0].send(2)
        #expect(racing.map { $0.subscriptions[0].cancelCount } == [1, 1])
        #expect(decided.map { $0.subscriptions[0].cancelCount } == [1, 1])
        #expect(late.values == [1])
    }

    @Test("Nothing is requested before the downstream asks; then one value from each, and the rest from the winner")
    func demandFlow() {
        let first = ControllablePublisher<Int, Never>()
        let second = ControllablePublisher<Int, Never>()
        defer { first.detachAll(); second.detachAll() }
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        first.amb(second).subscribe(recorder)
        #expect(first.subscriptions[0].requests.isEmpty)
        #expect(second.subscriptions[0].requests.isEmpty)
        recorder.request(.max(3))
        #expect(first.subscriptions[0].requests == [.max(1)])
        #expect(second.subscriptions[0].requests == [.max(1)])
        second.subscriptions[0].send(1)
        #expect(second.subscriptions[0].requests == [.max(1), .max(2)])
        recorder.request(.max(4))
        #expect(second.subscriptions[0].requests == [.max(1), .max(2), .max(4)])
        #expect(first.subscriptions[0].requests == [.max(1)])
        recorder.cancel()
    }

    @Test("A downstream that asked for two values gets two, from the winner, whatever the publishers send")
    func limitedDemand() {
        let first = PassthroughSubject<Int, Never>()
        let second = PassthroughSubject<Int, Never>()
        let one = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
        let two = RecordingSubscriber<Int, Never>(initialDemand: .max(2))
        first.amb(second).subscribe(one)
        first.amb(second).subscribe(two)
        for value in [3, 1, 0, 7, 11] { (value == 1 ? first : second).send(value) }
        #expect(one.values == [3])
        #expect(two.values == [3, 0])
        #expect(one.violations.isEmpty)
        #expect(two.violations.isEmpty)
        one.cancel()
        two.cancel()
    }

    @Test("Publishers that complete at subscription: the first subscribed wins; one that never signals loses")
    func synchronousPublishers() {
        let finishing = RecordingSubscriber<Int, Never>()
        Empty<Int, Never>().amb(Just(1)).subscribe(finishing)
        #expect(finishing.values.isEmpty)
        #expect(finishing.completion == .finished)
        let valued = RecordingSubscriber<Int, Never>()
        Empty<Int, Never>(completeImmediately: false).amb(with: Just(2), Just(3)).subscribe(valued)
        #expect(valued.values == [2])
        #expect(valued.completion == .finished)
    }

    @Test("Collections: an empty one finishes at once, one publisher is mirrored, amb(with:) races them all")
    func collections() {
        let none = RecordingSubscriber<Int, Never>()
        [AnyPublisher<Int, Never>]().amb().subscribe(none)
        #expect(none.completion == .finished)
        let subjects = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
        let single = RecordingSubscriber<Int, Never>()
        let many = RecordingSubscriber<Int, Never>()
        [subjects[0]].amb().subscribe(single)
        subjects[0].amb(with: subjects[1], subjects[2], subjects[3]).subscribe(many)
        subjects[2].send(1)
        subjects[0].send(2)
        subjects[2].send(3)
        subjects[2].send(completion: .finished)
        #expect(single.values == [2])
        #expect(many.values == [1, 3])
        #expect(many.completion == .finished)
        single.cancel()
    }

    @Test("After a cancel nothing keeps the downstream or the publishers alive")
    func cancelReleases() {
        var weakRecorder: Weak<RecordingSubscriber<Int, Never>>?
        var weakSubjects: [Weak<PassthroughSubject<Int, Never>>] = []
        do {
            let subjects = (0..<2).map { _ in PassthroughSubject<Int, Never>() }
            let recorder = RecordingSubscriber<Int, Never>()
            weakRecorder = Weak(recorder)
            weakSubjects = subjects.map { Weak($0) }
            subjects.amb().subscribe(recorder)
            subjects[1].send(1)
            recorder.cancel()
            #expect(recorder.values == [1])
        }
        #expect(weakRecorder?.object == nil)
        #expect(weakSubjects.allSatisfy { $0.object == nil })
    }

    @Test("Contenders racing on many threads: one winner, its values alone and in order, never beyond demand, never overlapping")
    func concurrentRace() {
        let senders = 4
        let perSender = 50
        for _ in 0..<StressBudget.scaled(200, minimum: 20) {
            let subjects = (0..<senders).map { _ in PassthroughSubject<Tagged, Never>() }
            let recorder = RecordingSubscriber<Tagged, Never>(initialDemand: .max(30))
            subjects.amb().subscribe(recorder)
            let shared = Shared(subjects)
            runConcurrently(threads: senders) { sender in
                for rank in 0..<perSender { shared.value[sender].send(Tagged(sender: sender, rank: rank)) }
            }
            let values = recorder.values
            #expect(Set(values.map(\.sender)).count == 1)
            #expect(values.map(\.rank) == Array(values.indices))
            #expect(values.count <= 30)
            #expect(recorder.violations.isEmpty)
            recorder.cancel()
        }
    }
}

extension AmbTests {
    /// Keeps its subscriber, so that a test hands it subscriptions itself.
    private final class HandingPublisher: Publisher, @unchecked Sendable {
        typealias Output = Int
        typealias Failure = Never
        // Safe for these tests: each uses it from one thread only.
        var subscriber: AnySubscriber<Int, Never>?
        func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
            self.subscriber = AnySubscriber(subscriber)
        }
    }

    /// Records what it is asked.
    private final class LoggedSubscription: Subscription, @unchecked Sendable {
        // Safe for these tests: each uses it from one thread only.
        var requests: [Subscribers.Demand] = []
        var cancels = 0
        func request(_ demand: Subscribers.Demand) { requests.append(demand) }
        func cancel() { cancels += 1 }
    }

    @Test("A contender's second subscription is cancelled, never asked; a loser's first too, once the race is decided")
    func secondSubscriptionIsCancelled() {
        let first = HandingPublisher()
        let second = HandingPublisher()
        let recorder = RecordingSubscriber<Int, Never>()
        first.amb(second).subscribe(recorder)
        let original = LoggedSubscription()
        first.subscriber?.receive(subscription: original)
        let again = LoggedSubscription()
        first.subscriber?.receive(subscription: again)
        #expect(original.requests == [.max(1)] && original.cancels == 0)
        #expect(again.requests.isEmpty && again.cancels == 1)
        _ = first.subscriber?.receive(1)  // first wins before second subscribed
        let late = LoggedSubscription()
        second.subscriber?.receive(subscription: late)
        #expect(late.requests.isEmpty && late.cancels == 1)
        #expect(recorder.values == [1] && recorder.violations.isEmpty)
        recorder.cancel()
        #expect(original.cancels == 1)
    }
}
