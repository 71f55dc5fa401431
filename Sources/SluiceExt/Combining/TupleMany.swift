import Sluice

/// `combineLatest()` and `zip()` over a collection: the machinery of `combineLatest(_:)` and `zip(_:)` with a
/// column per publisher; each value is one array, built once. Inlinable, to run specialised in the client.
@usableFromInline
struct TupleMany<Upstream: Publisher, Column: TupleColumn>: Publisher where Column.Element == Upstream.Output {
    @usableFromInline typealias Output = [Upstream.Output]
    @usableFromInline typealias Failure = Upstream.Failure

    @usableFromInline let upstreams: [Upstream]

    @inlinable
    init(_ upstreams: [Upstream]) {
        self.upstreams = upstreams
    }

    @inlinable
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let tuples = TupleSubscription<TupleRowMany<Column>, S>.start(
            subscriber,
            row: TupleRowMany(arity: upstreams.count)
        )
        for (index, upstream) in upstreams.enumerated() {
            upstream.subscribe(tuples.side(index, for: Upstream.Output.self))
        }
    }
}
