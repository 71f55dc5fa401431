import Sluice

/// The locked state of a subscription that ends once: by a completion it passes on, or by a cancel.
protocol EndingState {
    associatedtype Downstream: Subscriber
    var downstream: Downstream? { get set }
    var ended: Bool { get }
    /// Lets go of all but the downstream; returns the subscriptions still held, to cancel.
    mutating func end() -> [any Subscription]
}

extension Locked where State: EndingState {
    /// Ends the stream unless it has ended or `accept` (run under the lock) says no; cancels and completes
    /// after unlocking (rule 6). A nil `completion` (a cancel) only lets go of the downstream.
    func end(
        with completion: Subscribers.Completion<State.Downstream.Failure>?,
        if accept: (inout State) -> Bool = { _ in true }
    ) {
        let (cancels, downstream) = withLock { state -> ([any Subscription], State.Downstream?) in
            guard !state.ended, accept(&state) else { return ([], nil) }
            defer { state.downstream = nil }
            return (state.end(), state.downstream)
        }
        for subscription in cancels { subscription.cancel() }
        if let completion { downstream?.receive(completion: completion) }
        withExtendedLifetime(downstream) {}  // on cancel, released here, after unlocking
    }
}
