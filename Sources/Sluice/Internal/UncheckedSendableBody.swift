/// The body of a task that a generic subscription starts, boxed so that the task's closure captures no
/// generic type (Swift 6 rejects a generic subscriber's metatype there, `SendableMetatypes`; a protocol
/// would stop specialisation). Unchecked; each use runs once, in its task, and is safe because:
/// - ``TaskSubscription``'s operation (``UncheckedSendableOperation``) captures only `Sendable` values and
///   the ``TaskSubscriber``;
/// - an `asyncMap` task (``AsyncMapSubscription/start(_:_:)``) touches its subscription only through
///   ``AsyncMapSubscription/run(_:_:)``, which reads the immutable `Sendable` transform and reports through
///   ``AsyncMapSubscription/finished(_:with:)``: state behind its lock, one signal at a time.
@usableFromInline
struct UncheckedSendableBody<Argument>: @unchecked Sendable {
    @usableFromInline
    let run: (Argument) async -> Void

    @usableFromInline
    init(_ run: @escaping (Argument) async -> Void) { self.run = run }
}
