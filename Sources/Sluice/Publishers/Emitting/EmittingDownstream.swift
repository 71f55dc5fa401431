/// The subscriber of one ``Publishers/Emitting`` subscription, kept in the emitter's lock. Unchecked
/// Sendable: the emitter may be used from any thread, but only the one deliverer that ``SerialDelivery``
/// elects under that lock calls it, so signals never overlap (rule 3), and every hand-over between
/// deliverers passes through the lock, which orders their accesses. Nothing in it is mutable.
@usableFromInline
struct EmittingDownstream<Output, Failure: Error>: @unchecked Sendable {
    @usableFromInline let base: AnySubscriber<Output, Failure>

    @inlinable init(_ base: AnySubscriber<Output, Failure>) { self.base = base }
}
