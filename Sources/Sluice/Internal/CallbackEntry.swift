/// A subscription's entry point for a callback that a Foundation API insists be `@Sendable`
/// and calls, on its own thread, with an argument that is not `Sendable`: a
/// `NotificationCenter` observer block (it passes a `Notification`), a key-value
/// observation's change handler and a data task's completion handler, in SluiceFoundation. `package` so that SluiceFoundation can
/// use it; nothing outside the package sees it.
///
/// The same escape as ``ScheduledEntry``, for the same kind of callee, with an argument: the
/// closure calls back into a subscription whose state is all behind its lock and which calls
/// its downstream one signal at a time (through its ``SerialDelivery``), on the thread the
/// callback runs on, as Combine's contract lets any publisher do (a `sink` made on an actor
/// hops to it itself). The argument is handed over synchronously, on the thread that made
/// it, and crosses no thread inside the box. The observers' closures hold their subscription
/// weakly, so the foreign API keeping the callback keeps nothing alive; the data task's holds
/// it strongly until the task completes (URLSession calls it once, then lets it go).
package struct CallbackEntry<Argument>: @unchecked Sendable {
    package let run: (Argument) -> Void

    package init(_ run: @escaping (Argument) -> Void) { self.run = run }

    /// The closure to hand the foreign API.
    package var callback: @Sendable (Argument) -> Void { { self.run($0) } }
}
