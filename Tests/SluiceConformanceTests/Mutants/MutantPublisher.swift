import Sluice
import SluiceTesting

/// A deliberately broken publisher, to prove that the rules can fail: it publishes
/// `0..<count`, then `.finished`, like a plain sequence publisher, except for one ``Fault``.
///
/// With ``Fault/none`` it keeps every rule (the control: a mutant test that failed only
/// because the harness is broken would fail with the control too). Its delivery is the
/// usual drain loop: one thread delivers at a time, demand is added up under a lock, and no
/// lock is held while calling the subscriber.
struct MutantPublisher: Publisher {
    typealias Output = Int
    typealias Failure = TestFailure

    enum Fault: String, Sendable, CaseIterable {
        /// Keeps every rule.
        case none
        /// Sends one value beyond the demand after each request (rule 2).
        case sendsPastDemand
        /// Sends its first value as soon as it is subscribed, without demand (rule 2).
        case sendsWithoutDemand
        /// Forgets the demand that `receive(_:)` returns (rule 2).
        case ignoresReturnedDemand
        /// A request replaces the demand outstanding instead of adding to it (rule 3.8).
        case replacesDemand
        /// Adds demand with wrapping arithmetic: `.max(Int.max)` twice turns negative (rule 3.17).
        case wrapsDemand
        /// Sends value 2 before value 1.
        case reorders
        /// Never sends value 1.
        case dropsAValue
        /// Sends `.finished` twice (rule 4).
        case completesTwice
        /// Goes on delivering after a cancel (rule 4).
        case ignoresCancel
        /// Sends `.finished` when cancelled (rule 4).
        case completesOnCancel
        /// Keeps its subscriber after a cancel or its completion (rule 4); the publisher keeps it,
        /// not the subscription, so that it is freed with the publisher rather than leaked.
        case keepsSubscriber
        /// Delivers on whichever thread requests, at once, even while another delivery is
        /// running (rules 3 and 5: overlapping signals, and recursion inside `request`).
        case unserialized
        /// Gives its subscriber two subscriptions (rule 1).
        case subscribesTwice
        /// All subscriptions share one position in the values (rule 1.10).
        case sharesProgress
        /// Declared endless (``MutantPublisher/endless``), it finishes after its values anyway.
        case endsAnyway
    }

    let fault: Fault
    let count: Int
    /// Delivers from a task of its own, after `request(_:)` returned.
    let asynchronous: Bool
    /// After its values it stays open until cancelled (unless ``Fault/endsAnyway``).
    let endless: Bool
    private let shared = Locked(0)
    /// The subscribers kept by ``Fault/keepsSubscriber``.
    private let kept = Locked<[AnySubscriber<Int, TestFailure>]>([])

    init(_ fault: Fault, count: Int = 5, asynchronous: Bool = false, endless: Bool = false) {
        self.fault = fault
        self.count = count
        self.asynchronous = asynchronous
        self.endless = endless
    }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == TestFailure {
        let subscription = MutantSubscription(
            AnySubscriber(subscriber), fault: fault, count: count, asynchronous: asynchronous,
            endless: endless, shared: fault == .sharesProgress ? shared : nil)
        if fault == .keepsSubscriber { kept.withLock { $0.append(AnySubscriber(subscriber)) } }
        MutantScope.current?.add(subscription)
        subscriber.receive(subscription: subscription)
        if fault == .subscribesTwice { subscriber.receive(subscription: subscription) }
        if fault == .sendsWithoutDemand { subscription.sendFirstWithoutDemand() }
    }
}

/// The mutant subscriptions made while a test runs in a scope: a broken one may never end (it
/// lost its demand, or ignores the cancel), and it keeps its subscriber, which keeps it; the
/// test ends them all when it is done, so that they do not leak.
final class MutantScope: Sendable {
    @TaskLocal static var current: MutantScope?

    private let subscriptions = Locked<[Unchecked<AnyObject>]>([])

    fileprivate func add(_ subscription: MutantSubscription) {
        subscriptions.withLock { $0.append(Unchecked(subscription)) }
    }

    /// Runs `body` in this scope, then lets every subscription made in it drop its subscriber.
    static func run(_ body: () async -> Void) async {
        let scope = MutantScope()
        await $current.withValue(scope) { await body() }
        for subscription in scope.subscriptions.withLock({ $0 }) {
            (subscription.value as? MutantSubscription)?.dropSubscriber()
        }
    }
}

/// The subscription of ``MutantPublisher``.
private final class MutantSubscription: Subscription {
    private struct State {
        var downstream: AnySubscriber<Int, TestFailure>?
        /// Demand as a plain integer, so that ``MutantPublisher/Fault/wrapsDemand`` can wrap it;
        /// `unlimited` once it saturates.
        var demand = 0
        var unlimited = false
        var next = 0
        var delivering = false
        var cancelled = false
        var completed = false
        /// One value beyond the demand is owed (``MutantPublisher/Fault/sendsPastDemand``).
        var extra = false
    }

    private let fault: MutantPublisher.Fault
    private let count: Int
    private let asynchronous: Bool
    private let endless: Bool
    private let shared: Locked<Int>?
    private let state: Locked<State>

    init(
        _ downstream: AnySubscriber<Int, TestFailure>, fault: MutantPublisher.Fault, count: Int,
        asynchronous: Bool, endless: Bool, shared: Locked<Int>?
    ) {
        self.fault = fault
        self.count = count
        self.asynchronous = asynchronous
        self.endless = endless
        self.shared = shared
        state = Locked(State(downstream: downstream))
    }

    func request(_ demand: Subscribers.Demand) {
        let delivers = state.withLock { state -> Bool in
            if state.cancelled && fault != .ignoresCancel { return false }
            add(demand, to: &state)
            if fault == .sendsPastDemand { state.extra = true }
            if state.delivering && fault != .unserialized { return false }
            state.delivering = true
            return true
        }
        guard delivers else { return }
        if asynchronous {
            let subscription = Unchecked(self)  // its state is behind its lock
            Task { subscription.value.drain() }
        } else {
            drain()
        }
    }

    func cancel() {
        let completes = state.withLock { state -> AnySubscriber<Int, TestFailure>? in
            guard !state.cancelled else { return nil }
            state.cancelled = true
            let downstream = state.downstream
            if !state.delivering && fault != .ignoresCancel {
                state.downstream = nil
            }
            return fault == .completesOnCancel ? downstream : nil
        }
        completes?.receive(completion: .finished)
    }

    /// Forgets the subscriber, whatever the fault (for ``MutantScope``).
    func dropSubscriber() {
        let downstream = state.withLock { state in
            defer { state.downstream = nil }
            return state.downstream
        }
        _ = downstream  // released after the lock
    }

    func sendFirstWithoutDemand() {
        guard let downstream = state.withLock({ $0.downstream }) else { return }
        state.withLock { $0.next = 1 }
        _ = downstream.receive(0)
    }

    private func add(_ demand: Subscribers.Demand, to state: inout State) {
        guard let more = demand.max else {
            state.unlimited = true
            return
        }
        switch fault {
        case .replacesDemand: state.demand = more
        case .wrapsDemand: state.demand = state.demand &+ more
        default:
            let (sum, overflow) = state.demand.addingReportingOverflow(more)
            if overflow { state.unlimited = true } else { state.demand = sum }
        }
    }

    /// What to do next, decided under the lock.
    private enum Step {
        case deliver(Int, AnySubscriber<Int, TestFailure>)
        case complete(AnySubscriber<Int, TestFailure>)
        case stop
    }

    private func drain() {
        while true {
            switch nextStep() {
            case .stop:
                return
            case .complete(let downstream):
                downstream.receive(completion: .finished)
                if fault == .completesTwice { downstream.receive(completion: .finished) }
                return
            case .deliver(let value, let downstream):
                // Unserialized, a thread that took a value may lose the processor before it
                // delivers it: another thread's later value then goes first.
                if fault == .unserialized { yieldThread() }
                let more = downstream.receive(value)
                if fault != .ignoresReturnedDemand { state.withLock { add(more, to: &$0) } }
            }
        }
    }

    private func nextStep() -> Step {
        state.withLock { state -> Step in
            let stopped = state.cancelled && fault != .ignoresCancel
            guard !stopped, !state.completed, let downstream = state.downstream else {
                return stop(&state)
            }
            var index = takeIndex(&state)
            if fault == .dropsAValue && index == 1 { index = takeIndex(&state) }
            if index >= count && endless && fault != .endsAnyway {
                untake(&state)
                return stop(&state)
            }
            guard index < count else {
                state.completed = true
                state.delivering = false
                state.downstream = nil
                return .complete(downstream)
            }
            if state.unlimited {
            } else if state.demand > 0 {
                state.demand -= 1
            } else if state.extra {
                state.extra = false
            } else {
                untake(&state)
                return stop(&state)
            }
            return .deliver(value(at: index), downstream)
        }
    }

    private func stop(_ state: inout State) -> Step {
        state.delivering = false
        if state.cancelled && fault != .ignoresCancel { state.downstream = nil }
        return .stop
    }

    private func takeIndex(_ state: inout State) -> Int {
        guard let shared else {
            defer { state.next += 1 }
            return state.next
        }
        return shared.withLock { next in
            defer { next += 1 }
            return next
        }
    }

    private func untake(_ state: inout State) {
        if let shared { shared.withLock { $0 -= 1 } } else { state.next -= 1 }
    }

    private func value(at index: Int) -> Int {
        switch (fault, index) {
        case (.reorders, 1): 2
        case (.reorders, 2): 1
        default: index
        }
    }
}
