/// The subscription every `zip` and `combineLatest` gives its downstream, and (through one ``Side`` per
/// upstream) the subscriber of each upstream. Its rules are ``TupleState``'s; every transition happens under
/// one lock, and every call out (to the downstream, to an upstream) after unlocking.
@usableFromInline
package final class TupleSubscription<Row: TupleRow, Downstream: Subscriber>: Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
where Row.Output == Downstream.Input {
    @usableFromInline package typealias Failure = Downstream.Failure

    @usableFromInline package let combineIdentifier = CombineIdentifier()
    @usableFromInline let state: Locked<TupleState<Row, Downstream>>
    @usableFromInline let requestEntry: SpecializedEntry<TupleSubscription, Subscribers.Demand>

    @inlinable
    init(downstream: Downstream, row: Row) {
        state = Locked(TupleState(downstream: downstream, row: row))
        requestEntry = SpecializedEntry { $0.handleRequest($1) }
    }

    /// Gives the downstream a new subscription, whose values are kept in `row`, and returns it;
    /// the caller then subscribes each upstream through ``side(_:for:)``, in order. So an
    /// upstream that completes at once cannot reach the downstream before its subscription.
    @inlinable
    package static func start(_ downstream: Downstream, row: Row) -> TupleSubscription {
        let tuples = TupleSubscription(downstream: downstream, row: row)
        downstream.receive(subscription: tuples)
        return tuples
    }

    /// The subscriber of upstream `index`, whose elements are `Input`s.
    @inlinable
    package func side<Input>(_ index: Int, for _: Input.Type) -> Side<Input> { Side(tuples: self, index: index) }

    // MARK: Subscription

    @inlinable
    package func request(_ demand: Subscribers.Demand) { requestEntry(self, demand) }

    @inlinable
    func handleRequest(_ demand: Subscribers.Demand) {
        if demand == .none { Violation.zeroDemandRequested() }
        _ = perform(state.withLock { state in
            var action = TupleState<Row, Downstream>.Action()
            state.add(demand, into: &action)
            return action
        }, for: nil)
    }

    @inlinable
    package func cancel() {
        state.cancelFanIn()
    }

    // MARK: The upstreams' signals, through their sides

    @inlinable
    func receive(subscription: any Subscription, at index: Int) {
        guard let demand = state.withLock({ $0.attach(subscription, at: index) }) else { return subscription.cancel() }
        if demand > .none { subscription.request(demand) }
    }

    /// A tuple queued over the bound makes the sender wait, after its action, while the queue
    /// stays over it for a deliverer on another thread (see ``SerialDelivery``).
    @inlinable
    func receive<T>(_ value: T, at index: Int) -> Subscribers.Demand {
        let action = state.withLock { $0.receive(value, at: index) }
        let demand = perform(action, for: index)
        if action.holds { state.holdSender { state, sender in state.delivery.holdCondition(for: sender) } }
        return demand
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>, at index: Int) {
        _ = perform(state.withLock { $0.complete(completion, at: index) }, for: nil)
    }

    /// Carries out an action; if it made this thread the deliverer, delivers until nothing is
    /// left (tuples admitted meanwhile by other threads, then a completion kept for it).
    /// Returns the demand for upstream `index`, the one whose `receive(_:)` this thread is in:
    /// its share of new demand is returned rather than requested.
    @inlinable
    func perform(_ action: TupleState<Row, Downstream>.Action, for index: Int?) -> Subscribers.Demand {
        var returned = Subscribers.Demand.none
        carryOut(action, for: index, returning: &returned)
        if let (downstream, completion) = action.complete { downstream.receive(completion: completion) }
        guard let (downstream, first) = action.deliver else { return returned }
        // The deliverer's own actions never deliver or complete: the loop's signals do.
        state.deliver(.value(first), to: downstream, delivered: { $0.delivered(more: $1) }) { next in
            carryOut(next, for: index, returning: &returned)
        }
        return returned
    }

    /// The cancels and requests of an action.
    @inlinable
    func carryOut(
        _ action: TupleState<Row, Downstream>.Action,
        for index: Int?,
        returning returned: inout Subscribers.Demand
    ) {
        for upstream in action.cancels { upstream.cancel() }
        if index != nil { returned += action.requests.senderShare }
        guard let (demand, upstreams, onlySender) = action.requests.ask else { return }
        for (position, slot) in upstreams.enumerated() where position != action.requests.skips {
            if position == index { returned += demand } else if !onlySender { slot.current?.request(demand) }
        }
    }

    @usableFromInline package var description: String { Row.consumes ? "Zip" : "CombineLatest" }
    @usableFromInline package var customMirror: Mirror { Mirror(self, children: [:]) }
    @usableFromInline package var playgroundDescription: Any { description }

    /// The subscriber of one upstream: it tells the subscription which upstream spoke.
    @usableFromInline
    package struct Side<Input>: Subscriber, CustomStringConvertible {
        @usableFromInline let tuples: TupleSubscription
        @usableFromInline let index: Int
        @usableFromInline package let combineIdentifier = CombineIdentifier()

        @inlinable init(tuples: TupleSubscription, index: Int) {
            self.tuples = tuples
            self.index = index
        }

        @inlinable package func receive(subscription: any Subscription) {
            tuples.receive(subscription: subscription, at: index)
        }
        @inlinable package func receive(_ input: Input) -> Subscribers.Demand { tuples.receive(input, at: index) }
        @inlinable package func receive(completion: Subscribers.Completion<Failure>) {
            tuples.receive(completion: completion, at: index)
        }
        @usableFromInline package var description: String { tuples.description }
    }
}
