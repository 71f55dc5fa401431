/// The body of a task that a generic subscription starts, boxed so that the task's closure
/// captures no generic type. Swift 6 rejects the capture of a generic subscriber's metatype in
/// a task's closure (`SendableMetatypes`); erasing through a protocol instead would stop
/// specialisation. The package's only two uses, each safe for the reason given:
///
/// - ``TaskSubscription``'s operation (``UncheckedSendableOperation``): it captures only
///   `Sendable` values and the ``TaskSubscriber``, and runs once, in the subscription's one
///   task.
/// - an `asyncMap` task (``AsyncMapSubscription/start(_:_:)``): it captures the subscription
///   and one `Sendable` value, and touches the subscription only through
///   ``AsyncMapSubscription/run(_:_:)``, which reads its immutable `Sendable` transform and
///   reports through ``AsyncMapSubscription/finished(_:with:)``, whose state is behind its
///   lock and which calls the downstream one signal at a time through its ``SerialDelivery``,
///   on the thread the task finishes on, as any publisher may (a `sink` made on an actor hops
///   to it itself). It runs once, in its task.
@usableFromInline
struct UncheckedSendableBody<Argument>: @unchecked Sendable {
    @usableFromInline
    let run: (Argument) async -> Void

    @usableFromInline
    init(_ run: @escaping (Argument) async -> Void) { self.run = run }
}
