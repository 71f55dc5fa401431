import Dispatch
import Testing
@testable import Sluice
import SluiceTesting

/// Something a closure captures, to see when the closure is released.
private final class Captured: Sendable {}

/// How a sink reaches a subject in these tests: each route is called by the subject's deliverer
/// past the sink's own gate, so each must keep the sink's closures through a cancel that lands
/// while the deliverer is out calling it.
enum SinkRoute: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case direct, multicast, share

    var testDescription: String { rawValue }

    /// `subject` as this route publishes it; the cancellable (if any) keeps a connection.
    func publisher(_ subject: PassthroughSubject<Int, Never>) -> (AnyPublisher<Int, Never>, AnyCancellable?) {
        switch self {
        case .direct: return (subject.eraseToAnyPublisher(), nil)
        case .share: return (subject.share().eraseToAnyPublisher(), nil)
        case .multicast:
            let multicast = subject.multicast { PassthroughSubject() }
            return (multicast.eraseToAnyPublisher(), AnyCancellable(multicast.connect()))
        }
    }

    /// The same, without type erasure: the routes as the subject's specialised code sees them.
    func sink(
        _ subject: PassthroughSubject<Int, Never>, _ receiveValue: @escaping (Int) -> Void
    ) -> (Subscribers.Sink<Int, Never>, AnyCancellable?) {
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: receiveValue)
        switch self {
        case .direct:
            subject.subscribe(sink)
            return (sink, nil)
        case .share:
            subject.share().subscribe(sink)
            return (sink, nil)
        case .multicast:
            let multicast = subject.multicast { PassthroughSubject() }
            multicast.subscribe(sink)
            return (sink, AnyCancellable(multicast.connect()))
        }
    }
}

@Suite("A subject's deliverer and a cancel on another thread: nothing is freed under a call in progress", .timeLimit(.minutes(12)))
struct SubjectCancelDuringDeliveryTests {
    @Test("a sink cancelled while a subject calls it keeps its closures until the call returns, then releases them", arguments: SinkRoute.allCases)
    func sinkCancelledDuringDelivery(route: SinkRoute) {
        let entered = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        weak var weakCaptured: Captured?
        let subject = PassthroughSubject<Int, Never>()
        let (sink, connection) = {
            let captured = Captured()
            weakCaptured = captured
            return route.sink(subject) { _ in
                _ = captured
                entered.signal()
                proceed.wait(for: "the test to let the call return")
            }
        }()
        DispatchQueue.global().async {
            subject.send(1)
            finished.signal()
        }
        entered.wait(for: "the subject to call in")
        sink.cancel()
        let releasedDuringCall = sink.gate.isReleased
        #expect(!releasedDuringCall, "the closure is running: it must not be freed under it")
        proceed.signal()
        finished.wait(for: "the send to return")
        let releasedAfterCall = sink.gate.isReleased
        #expect(releasedAfterCall, "released once the call returned")
        #expect(weakCaptured == nil)
        _ = connection
    }

    @Test("a connection holding its subject strongly (share's), cancelled while the upstream subject calls through it, keeps the subject until the call returns")
    func connectionCancelledDuringDelivery() {
        let entered = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        weak var weakShared: PassthroughSubject<Int, Never>?
        let upstream = PassthroughSubject<Int, Never>()
        let (sink, connection) = {
            let shared = PassthroughSubject<Int, Never>()
            weakShared = shared
            let sink = shared.sink { _ in
                entered.signal()
                proceed.wait(for: "the test to let the call return")
            }
            // What `share()`'s and `makeConnectable()`'s connections make; besides it only the
            // sink's subscription keeps `shared`.
            let connection = SubjectSubscriber(shared, strongly: true)
            upstream.subscribe(connection)
            return (sink, connection)
        }()
        DispatchQueue.global().async {
            upstream.send(1)
            finished.signal()
        }
        entered.wait(for: "the subject to call in")
        connection.cancel()
        #expect(connection.state.withLock { $0.hold.subject } != nil, "the shared subject is sending: it must be kept")
        proceed.signal()
        finished.wait(for: "the send to return")
        #expect(connection.state.withLock { $0.hold.subject } == nil, "let go once the call returned")
        upstream.send(2)  // goes nowhere
        sink.cancel()
        #expect(weakShared == nil)
    }

    @Test("a sink cancelled from inside its closure finishes that call, then releases its closures", arguments: SinkRoute.allCases)
    func sinkCancelledInsideItsClosure(route: SinkRoute) {
        weak var weakCaptured: Captured?
        let subject = PassthroughSubject<Int, Never>()
        var seen: [Int] = []
        var sink: Subscribers.Sink<Int, Never>?
        var releasedInside: [Bool] = []
        var connection: AnyCancellable?
        do {
            let captured = Captured()
            weakCaptured = captured
            (sink, connection) = route.sink(subject) { value in
                sink?.cancel()
                releasedInside.append(sink?.gate.isReleased ?? true)
                seen.append(value)
                _ = captured
            }
        }
        subject.send(1)
        subject.send(2)
        #expect(seen == [1])
        #expect(releasedInside == [false], "still running after the cancel: the closure is intact")
        #expect(weakCaptured == nil)
        _ = connection
    }

    @Test("a sink that an earlier sink cancels during the same send is neither called nor kept", arguments: SinkRoute.allCases)
    func sinkCancelledByAnEarlierOne(route: SinkRoute) {
        let subject = PassthroughSubject<Int, Never>()
        let (publisher, connection) = route.publisher(subject)
        var calls = 0
        let later = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in calls += 1 })
        let first = publisher.sink { _ in later.cancel() }
        publisher.subscribe(later)
        subject.send(1)
        #expect(calls == 0)
        let released = later.gate.isReleased
        #expect(released, "its closures are released although the sink lives on")
        first.cancel()
        _ = connection
    }

    @Test("sends racing with a sink's two cancels and the connection's never free what a call in progress uses", arguments: SinkRoute.allCases)
    func cancelRacesSends(route: SinkRoute) async {
        for _ in 0..<StressBudget.scaled(1_000) {
            let released = Gate()
            let subject = PassthroughSubject<Int, Never>()
            let (sink, connection) = {
                let probe = DeinitProbe(released)
                return route.sink(subject) { _ in _ = probe }
            }()
            let cancels = UncheckedBox((sink, connection))
            await withTaskGroup(of: Void.self) { group in
                group.addTask { for i in 0..<20 { subject.send(i) } }
                group.addTask { cancels.value.1?.cancel() }
                group.addTask { cancels.value.0.cancel() }
                group.addTask { cancels.value.0.cancel() }  // a second cancel, racing the first
            }
            await released.wait()
            #expect(released.isOpen)
        }
    }

    @Test("a sink completed from inside its own closure, while a subject calls it, keeps its closures until the call returns", arguments: SinkRoute.allCases)
    func sinkCompletedInsideItsClosure(route: SinkRoute) {
        let subject = PassthroughSubject<Int, Never>()
        var sink: Subscribers.Sink<Int, Never>?
        var releasedInside: [Bool] = []
        var values: [Int] = []
        var completions = 0
        let made = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in completions += 1 }, receiveValue: { value in
            sink?.receive(completion: .finished)
            releasedInside.append(sink?.gate.isReleased ?? true)
            values.append(value)
        })
        sink = made
        let (publisher, connection) = route.publisher(subject)
        publisher.subscribe(made)
        subject.send(1)
        subject.send(2)
        #expect(values == [1] && completions == 1)
        #expect(releasedInside == [false], "the closure is running: it must not be freed under it")
        let released = made.gate.isReleased
        #expect(released, "released once the call returned")
        _ = connection
    }

    @Test(
        "a subject held strongly by its connection (AnySubscriber(subject)) that cancels it while sending is kept until that send returns: cancelled twice, or first through the conduit its mirror shows",
        arguments: [true, false])
    func connectionCancelledBySubject(cancelsTwice: Bool) {
        weak var weakSubject: CancellingSubject?
        let heldDuringSend = Locked<[Bool]>([])
        let upstream = PassthroughSubject<Int, Never>()
        let sink: AnyCancellable = {
            let subject = CancellingSubject(cancelsTwice: cancelsTwice, record: heldDuringSend)
            weakSubject = subject
            upstream.subscribe(AnySubscriber(subject))  // it goes: only the connection keeps the subject
            return subject.sink { _ in }
        }()
        upstream.send(1)
        #expect(heldDuringSend.withLock { $0 } == [true])
        #expect(weakSubject == nil, "let go once its send returned")
        sink.cancel()
    }

    @Test("a sink handed a subscription that a subject delivers to someone else releases its closures when cancelled")
    func sinkWithAForeignConduit() {
        let upstream = PassthroughSubject<Int, Never>()
        let shared = PassthroughSubject<Int, Never>()
        let connection = SubjectSubscriber(shared, strongly: true)
        upstream.subscribe(connection)
        let conduit = connection.state.withLock { $0.upstream.current }!
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        sink.receive(subscription: conduit)
        var releasedAtCancel: Bool?
        let cancelling = shared.sink { _ in
            sink.cancel()
            releasedAtCancel = sink.gate.isReleased
        }
        upstream.send(1)
        #expect(releasedAtCancel == true, "nothing calls it past its gate: released at once")
        #expect(connection.state.withLock { $0.hold.subject } != nil, "the connection was not told of another's cancel")
        connection.cancel()
        cancelling.cancel()
    }
}

/// A subject of a user's own for `multicast(subject:)`: inside `send` it cancels its connection
/// (twice, or first the conduit it reads from the connection's mirror and then the
/// connection), then records whether the connection still keeps it.
private final class CancellingSubject: Subject, @unchecked Sendable {
    typealias Output = Int
    typealias Failure = Never
    let inner = PassthroughSubject<Int, Never>()
    let cancelsTwice: Bool
    /// Whether the connection kept this subject, after the cancels of each `send`.
    let heldDuringSend: Locked<[Bool]>
    var connection: (any Subscription)?

    init(cancelsTwice: Bool, record: Locked<[Bool]>) {
        self.cancelsTwice = cancelsTwice
        heldDuringSend = record
    }

    func send(_ value: Int) {
        inner.send(value)
        if cancelsTwice {
            connection?.cancel()
        } else {
            let conduit = Mirror(reflecting: connection!).children.first { $0.label == "upstreamSubscription" }?.value
            (conduit as? any Subscription)?.cancel()
        }
        connection?.cancel()
        let held = (connection as? SubjectSubscriber<CancellingSubject>)?.state.withLock { $0.hold.subject != nil }
        heldDuringSend.withLock { $0.append(held ?? false) }
    }

    func send(completion: Subscribers.Completion<Never>) { inner.send(completion: completion) }
    func send(subscription: any Subscription) {
        connection = subscription
        inner.send(subscription: subscription)
    }
    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never { inner.receive(subscriber: subscriber) }
}
