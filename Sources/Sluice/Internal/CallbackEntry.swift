/// A subscription's entry point for a callback that a Foundation API (in SluiceFoundation) insists be
/// `@Sendable` and calls on its own thread with a non-`Sendable` argument: a `NotificationCenter` observer,
/// a key-value observation's change handler, a data task's completion handler.
///
/// Unchecked, as ``ScheduledEntry``: the closure calls a subscription whose state is all behind its lock and
/// which calls its downstream one signal at a time (``SerialDelivery``) on the callback's thread, as any
/// publisher may; the argument is handed over synchronously on the thread that made it. The observers hold
/// their subscription weakly; the data task's holds it until it completes (URLSession calls it once).
package struct CallbackEntry<Argument>: @unchecked Sendable {
    package let run: (Argument) -> Void

    package init(_ run: @escaping (Argument) -> Void) { self.run = run }

    /// The closure to hand the foreign API.
    package var callback: @Sendable (Argument) -> Void { { self.run($0) } }
}
