/// The subscriber of one ``Publishers/Emitting`` subscription, kept in the emitter's lock.
///
/// The emitter's one unsafe escape, and why it is safe: the subscriber is not `Sendable`,
/// yet the emitter may be used from any thread, and each signal goes out on the thread that
/// sent it (Combine's contract). Only the one *deliverer* that the subscription's
/// ``SerialDelivery`` elects under the emitter's lock calls it, so signals never overlap
/// (rule 3), and every hand-over between deliverers passes through that lock, which orders
/// one deliverer's accesses before the next one's. Nothing in it is mutable.
@usableFromInline
struct EmittingDownstream<Output, Failure: Error>: @unchecked Sendable {
    @usableFromInline let base: AnySubscriber<Output, Failure>

    @inlinable init(_ base: AnySubscriber<Output, Failure>) { self.base = base }
}
