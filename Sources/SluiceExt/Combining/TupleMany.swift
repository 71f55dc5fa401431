import Sluice

/// `combineLatest()` and `zip()` over a collection of publishers: one subscription over them all (the
/// machinery of Sluice's `combineLatest(_:)` and `zip(_:)`, with a column per publisher), so
/// demand, threads and endings are those operators', and each value is one array, built once.
///
/// Inlinable, so that the subscription runs specialised in the client (benchmark row
/// "[4 subjects].combineLatest()").
@usableFromInline
struct TupleMany<Upstream: Publisher, Column: TupleColumn>: Publisher where Column.Element == Upstream.Output {
    @usableFromInline typealias Output = [Upstream.Output]
    @usableFromInline typealias Failure = Upstream.Failure

    @usableFromInline let upstreams: [Upstream]

    @inlinable
    init(_ upstreams: [Upstream]) {
        self.upstreams = upstreams
    }

    /// Subscribes `subscriber`, then every upstream in order.
    @inlinable
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let tuples = TupleSubscription<TupleRowMany<Column>, S>.start(subscriber, row: TupleRowMany(arity: upstreams.count))
        for (index, upstream) in upstreams.enumerated() {
            upstream.subscribe(tuples.side(index, for: Upstream.Output.self))
        }
    }
}
