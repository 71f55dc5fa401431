extension Producer {
    /// What a ``Producer`` body sends its values through; it belongs to the
    /// body's task and is not `Sendable`, so values are sent serially, from that task only.
    public final class Sender {
        @usableFromInline
        let subscription: TaskSubscription
        /// The subscriber's `receive(_:)`, and the slot of a value waiting for demand.
        @usableFromInline
        let offer: ProducerOffer<Output>
        /// Demand taken from the subscription and not yet spent, owned by the body's task. Unchecked
        /// exclusivity (the dynamic check would run on every `send`): the sender is not `Sendable`, so only
        /// the body's task reaches it, and no access in ``send(_:)`` spans an `await`, so none overlap.
        @exclusivity(unchecked) @usableFromInline
        var demand = Subscribers.Demand.none

        /// `deliver` is the subscriber's `receive(_:)`, built in the client-specialised
        /// ``Producer/receive(subscriber:)``; it returns `nil` once a cancel released the subscriber.
        @usableFromInline
        init(subscription: TaskSubscription, deliver: @escaping (Output) -> Subscribers.Demand?) {
            self.subscription = subscription
            offer = ProducerOffer(receive: deliver)
        }

        /// Delivers `value` once the subscriber has demand for it, suspending until then.
        ///
        /// Returns `true` once delivered, `false` if the subscription was cancelled (before or while waiting):
        /// the value was dropped and the body should return. While this waits, the value is delivered by the
        /// subscriber's `request(_:)`, inside that call. The result may be ignored where nothing follows the
        /// send; in a loop, stop on `false`, as ``Producer``'s example does (a cancel also cancels the body's
        /// task, but a loop that checks neither would go on producing values nobody receives).
        ///
        /// `value` is `sending`: a non-`Sendable` one is given away to the subscriber, which may be on another
        /// thread or actor, so the body cannot go on using it; `Sendable` values are passed as usual.
        @inlinable @discardableResult
        public func send(_ value: sending Output) async -> Bool {
            if demand == .none {
                guard let pending = subscription.takePendingDemand() else { return false }
                guard pending > .none else { return await waitForDemand(offering: value) }
                demand = pending
            }
            if subscription.isCancelled { return false }
            demand -= 1
            demand += offer.receive(value) ?? .none
            return true
        }

        /// Suspends with `value` offered to the request that brings demand; `true` once
        /// it was delivered, with the demand left taken for the next values.
        @usableFromInline
        func waitForDemand(offering value: Output) async -> Bool {
            offer.value = value
            guard let left = await subscription.offer(offer) else {
                offer.value = nil  // cancelled: dropped now, not when the next value comes
                return false
            }
            demand = left
            return true
        }

        /// `true` once the subscription is cancelled; nothing sent afterwards is delivered.
        public var isCancelled: Bool { subscription.isCancelled }
    }
}

@available(*, unavailable)
extension Producer.Sender: Sendable {}

/// The value a ``Producer/Sender`` waits with, offered to the request that brings demand
/// (``TaskSubscriptionOffer``), and the subscriber's `receive(_:)`. Safe to mark `@unchecked Sendable`:
/// `value` is written by the body's task before the offer is published under the subscription's lock, and
/// taken by the one party that delivers it (a request that took the offer under that lock, or the task when
/// demand came first), while the task stays suspended until that delivery returns. The lock and the
/// continuation order these accesses, and keep the calls to `receive` serial.
@usableFromInline
final class ProducerOffer<Output>: TaskSubscriptionOffer, @unchecked Sendable {
    @usableFromInline
    var value: Output?
    /// The subscriber's `receive(_:)`; `nil` once it was released by a cancel.
    @usableFromInline
    let receive: (Output) -> Subscribers.Demand?

    @usableFromInline
    init(receive: @escaping (Output) -> Subscribers.Demand?) { self.receive = receive }

    @usableFromInline
    func deliver() -> Subscribers.Demand? {
        guard let value = value.take() else { return nil }
        return receive(value)
    }
}
