import Sluice

/// `combineLatest()` and `zip()` over a collection of publishers: one join over them all (the
/// machinery of Sluice's `combineLatest(_:)` and `zip(_:)`, with a column per publisher), so
/// demand, threads and endings are those operators', and each value is one array, built once.
///
/// Inlinable, so that the join runs specialised in the client (benchmark row
/// "[4 subjects].combineLatest()").
@usableFromInline
struct JoinMany<Upstream: Publisher, Column: JoinColumn>: Publisher where Column.Element == Upstream.Output {
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
        let join = JoinSubscription<JoinRowMany<Column>, S>.start(subscriber, row: JoinRowMany(arity: upstreams.count))
        for (index, upstream) in upstreams.enumerated() {
            upstream.subscribe(join.side(index, for: Upstream.Output.self))
        }
    }
}
