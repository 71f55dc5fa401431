/// A method of a generic subscription, captured where its type arguments are known, so that
/// calls through `any Subscription` still run specialised code.
///
/// A call through an existential reaches a generic class's protocol witness, which runs the
/// unspecialised method: every generic type it touches (its state, tuples of its actions) is
/// looked up in the runtime's metadata caches on each call. A subscription that is asked for
/// one element at a time through an existential (`values`, `sink(isolation:)`) pays that per
/// element. `Publishers.Sequence`'s emitter, `Just`'s settling, and the multi-upstream
/// operators' `request(_:)` go through one. The subscription makes its entry in its initialiser, which the client specialises
/// (the publisher's `receive(subscriber:)` is inlinable), so the closure's body is the
/// specialised method; the witness only calls it. The closure captures nothing (it takes the
/// subscription as its argument), so it allocates nothing and holds no reference.
@usableFromInline
struct SpecializedEntry<Owner: AnyObject, Argument> {
    @usableFromInline let body: (Owner, Argument) -> Void

    @inlinable init(_ body: @escaping (Owner, Argument) -> Void) { self.body = body }

    @inlinable func callAsFunction(_ owner: Owner, _ argument: Argument) { body(owner, argument) }
}
