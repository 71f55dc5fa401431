/// What `prefix(untilOutputFrom:)` and `drop(untilOutputFrom:)` share: the upstream's values
/// and the stream's completion reach the downstream one at a time through a
/// ``SerialDelivery`` with unlimited demand (the upstream keeps the demand), because the other
/// publisher can end the stream on another thread while a value is delivered. The state
/// (under its owner's lock) lets go of the downstream with the completion it delivers (rule 4).
@usableFromInline
protocol UntilOutputDeliveryState<Downstream> {
    associatedtype Downstream: Subscriber
    var downstream: Downstream? { get set }
    var delivery: SerialDelivery<Downstream.Input, Downstream.Failure> { get set }
}

extension UntilOutputDeliveryState {
    /// The deliverer is back: what it delivers next (`.idle` when done or cancelled).
    @inlinable
    mutating func delivered() -> (Downstream?, SerialDelivery<Downstream.Input, Downstream.Failure>.Next) {
        guard let downstream else { return (nil, .idle) }
        let next = delivery.next(adding: .none)
        if case .completion = next { self.downstream = nil }
        return (downstream, next)
    }
}

extension Locked where State: UntilOutputDeliveryState {
    /// Delivers `input` (admitted by this thread, which is now the deliverer), then what arrived meanwhile,
    /// each after unlocking; returns the demand the downstream asked for on the way, for the upstream.
    @inlinable
    func deliver(_ input: State.Downstream.Input, to downstream: State.Downstream) -> Subscribers.Demand {
        var demand = downstream.receive(input)
        while true {
            switch withLock({ $0.delivered() }) {
            case (let downstream?, .value(let value)): demand += downstream.receive(value)
            case (let downstream?, .completion(let completion)): downstream.receive(completion: completion)
            default: return demand
            }
        }
    }
}
