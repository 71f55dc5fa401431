import Sluice
import SluiceTesting

/// A defect put between the publisher a stress or schedule family checks and the subscriber
/// that records it, so that the family can be shown to catch the kind of defect it exists for
/// (the family mutant tests). A family's own tests pass no fault and subscribe directly: the
/// publisher they check has nothing in front of it.
enum InjectedFault: Sendable {
    /// The value at this position (counting from 0) never arrives; the upstream is asked for one
    /// more in its place, so that nothing waits for it.
    case dropsValue(at: Int)
    /// The value at this position arrives twice.
    case duplicatesValue(at: Int)
    /// The values at this position and the next arrive in reverse order.
    case swapsValues(at: Int)
    /// A cancel goes nowhere: values go on arriving, and the upstream keeps the subscriber
    /// (until ``releaseKept()`` cancels for real).
    case ignoresCancel
    /// A cancel reaches the upstream and the completion the subscriber as usual, but the subscriber is kept
    /// (until ``releaseKept()``).
    case keepsSubscriber

    /// What the faults keep: the subscribers of ``keepsSubscriber``, the cancels that
    /// ``ignoresCancel`` ignored (each a closure that cancels for real).
    private static let kept = Locked<[Unchecked<Any>]>([])

    fileprivate static func keep(_ thing: Any) {
        kept.withLock { $0.append(Unchecked(thing)) }
    }

    /// Lets go of what the faults kept, so that a mutant test leaks nothing (leak detection runs
    /// the suite too); a mutant test calls it when done.
    static func releaseKept() {
        let released = kept.withLock { kept in
            defer { kept.removeAll() }
            return kept
        }
        for thing in released {
            (thing.value as? () -> Void)?()
        }
    }
}

extension Publisher {
    /// Subscribes `subscriber` directly, or through `fault` when there is one.
    func subscribe<S: Subscriber>(_ subscriber: S, injecting fault: InjectedFault?)
    where S.Input == Output, S.Failure == Failure {
        guard let fault else { return subscribe(subscriber) }
        subscribe(FaultInjector(subscriber, fault: fault))
    }
}

/// Passes every signal between an upstream and `downstream` unchanged, except for its one
/// ``InjectedFault``. Signals from the upstream come one at a time (rule 1.3), requests and
/// cancels from any thread: its state is under a lock that no call out of it holds.
private final class FaultInjector<Downstream: Subscriber>: Subscriber, Subscription {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private struct State {
        var downstream: Downstream?
        var upstream: (any Subscription)?
        /// Values received so far.
        var position = 0
        /// The first of two values to swap, until the second comes.
        var held: Input?
    }

    private let fault: InjectedFault
    private let state: Locked<State>

    init(_ downstream: Downstream, fault: InjectedFault) {
        self.fault = fault
        state = Locked(State(downstream: downstream))
    }

    func receive(subscription: any Subscription) {
        guard let downstream = state.withLock({ state -> Downstream? in
            state.upstream = subscription
            return state.downstream
        }) else { return subscription.cancel() }
        downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        let (downstream, position, held) = state.withLock { state in
            defer { state.position += 1 }
            let held = state.held
            state.held = nil
            if case .swapsValues(let at) = fault, state.position == at { state.held = input }
            return (state.downstream, state.position, held)
        }
        guard let downstream else { return .none }
        switch fault {
        case .dropsValue(let at) where position == at:
            return .max(1)
        case .duplicatesValue(let at) where position == at:
            return downstream.receive(input) + downstream.receive(input)
        case .swapsValues(let at) where position == at:
            return .max(1)  // the second value takes the place of this one
        case .swapsValues:
            guard let held else { return downstream.receive(input) }
            let demand = downstream.receive(input) + downstream.receive(held)
            return demand == .unlimited || demand == .none ? demand : demand - 1  // the extra asked for above
        default:
            return downstream.receive(input)
        }
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        let (downstream, held) = state.withLock { state in
            defer { state = State() }
            return (state.downstream, state.held)
        }
        if let held { _ = downstream?.receive(held) }
        downstream?.receive(completion: completion)
        if case .keepsSubscriber = fault, let downstream { InjectedFault.keep(downstream) }
    }

    func request(_ demand: Subscribers.Demand) {
        state.withLock { $0.upstream }?.request(demand)
    }

    func cancel() {
        if case .ignoresCancel = fault {
            return InjectedFault.keep({ self.cancelForReal() } as () -> Void)
        }
        cancelForReal()
    }

    private func cancelForReal() {
        let (upstream, downstream) = state.withLock { state in
            defer { state = State() }
            return (state.upstream, state.downstream)
        }
        if case .keepsSubscriber = fault, let downstream { InjectedFault.keep(downstream) }
        upstream?.cancel()
    }
}
