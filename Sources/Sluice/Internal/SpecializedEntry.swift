/// A method of a generic subscription, captured where its type arguments are known, so that calls through
/// `any Subscription` (whose witness runs unspecialised code, looking up metadata on every call) still run
/// specialised code. Made in the subscription's initialiser, which the client specialises; the closure
/// captures nothing (it takes the subscription as its argument), so it allocates and retains nothing.
@usableFromInline
struct SpecializedEntry<Owner: AnyObject, Argument> {
    @usableFromInline let body: (Owner, Argument) -> Void

    @inlinable init(_ body: @escaping (Owner, Argument) -> Void) { self.body = body }

    @inlinable func callAsFunction(_ owner: Owner, _ argument: Argument) { body(owner, argument) }
}
