import Sluice
import SluiceTesting
import Testing

/// A value shared with a task in a test.
///
/// Safe here because the wrapped test doubles are only driven through thread-safe calls
/// (`ControllableSubscription` records under a lock) and the tests order the calls.
struct Shared<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}


/// A cold publisher of `range` that delivers synchronously inside `request(_:)`, with a
/// trampoline so that demand returned from `receive(_:)` or re-entrant requests loop instead
/// of recursing. Tracks its live subscriptions with weak references.
final class SyncRangePublisher: Publisher, Sendable {
    typealias Output = Int
    typealias Failure = Never

    let range: Range<Int>
    private let created = Locked<[WeakSubscription]>([])

    init(_ range: Range<Int>) { self.range = range }

    /// Subscriptions still alive somewhere.
    var liveSubscriptions: Int { created.withLock { $0.count { $0.subscription != nil } } }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        let subscription = RangeSubscription(range, AnySubscriber(subscriber))
        created.withLock { $0.append(WeakSubscription(subscription: subscription)) }
        subscriber.receive(subscription: subscription)
    }

    struct WeakSubscription: @unchecked Sendable {  // read only under the publisher's lock
        weak var subscription: RangeSubscription?
    }

    final class RangeSubscription: Subscription, @unchecked Sendable {
        // Safe: every field is behind `state`'s lock; the subscriber is called outside it,
        // one delivery loop at a time (the `delivering` flag).
        struct State {
            var next: Int
            let end: Int
            var demand = Subscribers.Demand.none
            var delivering = false
            var downstream: AnySubscriber<Int, Never>?
        }
        private let state: Locked<State>

        init(_ range: Range<Int>, _ downstream: AnySubscriber<Int, Never>) {
            state = Locked(State(next: range.lowerBound, end: range.upperBound, downstream: downstream))
        }

        func request(_ demand: Subscribers.Demand) {
            let start = state.withLock { state -> Bool in
                state.demand += demand
                guard !state.delivering else { return false }
                state.delivering = true
                return true
            }
            guard start else { return }
            while true {
                enum Step { case value(Int, AnySubscriber<Int, Never>), finish(AnySubscriber<Int, Never>), stop }
                let step = state.withLock { state -> Step in
                    guard let downstream = state.downstream else { state.delivering = false; return .stop }
                    if state.next == state.end {
                        state.downstream = nil
                        return .finish(downstream)
                    }
                    guard state.demand > 0 else { state.delivering = false; return .stop }
                    state.demand -= 1
                    state.next += 1
                    return .value(state.next - 1, downstream)
                }
                switch step {
                case .stop: return
                case .finish(let downstream):
                    downstream.receive(completion: .finished)
                    return
                case .value(let value, let downstream):
                    let more = downstream.receive(value)
                    state.withLock { $0.demand += more }
                }
            }
        }

        func cancel() { state.withLock { $0.downstream = nil } }
    }
}

/// A hot source like a subject: `send` delivers only within the subscriber's demand and
/// drops values otherwise. One subscriber. `waitForDemand()` suspends until some is
/// outstanding.
final class HotSource: Publisher, @unchecked Sendable {
    // Safe: every field is behind `state`'s lock; calls out happen after unlocking.
    typealias Output = Int
    typealias Failure = Never

    struct State {
        var downstream: AnySubscriber<Int, Never>?
        var demand = Subscribers.Demand.none
        var demandWaiters: [Gate] = []
        var requests: [Subscribers.Demand] = []
    }
    let state = Locked(State())

    var requests: [Subscribers.Demand] { state.withLock { $0.requests } }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        state.withLock { $0.downstream = AnySubscriber(subscriber) }
        subscriber.receive(subscription: Link(source: self))
    }

    final class Link: Subscription, @unchecked Sendable {  // Safe: stateless, forwards to HotSource
        let source: HotSource
        init(source: HotSource) { self.source = source }
        func request(_ demand: Subscribers.Demand) {
            let waiters = source.state.withLock { state in
                state.requests.append(demand)
                state.demand += demand
                defer { state.demandWaiters = [] }
                return state.demandWaiters
            }
            for waiter in waiters { waiter.open() }
        }
        func cancel() { source.state.withLock { $0.downstream = nil } }
    }

    func send(_ value: Int) {
        let target = state.withLock { state -> AnySubscriber<Int, Never>? in
            guard state.demand > 0, let downstream = state.downstream else { return nil }
            state.demand -= 1
            return downstream
        }
        guard let target else { return }
        let more = target.receive(value)
        state.withLock { $0.demand += more }
    }

    func finish() {
        let target = state.withLock { state in defer { state.downstream = nil }; return state.downstream }
        target?.receive(completion: .finished)
    }

    /// Suspends until there is demand; if the task is cancelled first (a time limit), returns
    /// and records an issue (see ``Gate``).
    func waitForDemand(sourceLocation: SourceLocation = #_sourceLocation) async {
        let gate = Gate()
        let ready = state.withLock { state -> Bool in
            if state.demand > 0 { return true }
            state.demandWaiters.append(gate)
            return false
        }
        if ready { return }
        await gate.wait(for: "demand from the subscriber", sourceLocation: sourceLocation)
    }
}
