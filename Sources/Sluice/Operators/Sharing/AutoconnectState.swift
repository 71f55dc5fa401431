/// The connection of one ``Publishers/Autoconnect``, under its lock: how many subscribers it
/// has and whether its upstream is connected.
///
/// A subscriber counts from its subscribe until it cancels (once, however often it calls
/// `cancel()`). A completion does not end its count, as in Combine: an upstream that has
/// completed stays connected, and a later subscriber gets the completion, not a new run.
///
/// ```text
/// disconnected ──first subscriber──▶ connecting ──connect() returned──▶ connected
///      ▲     ▲                          ▲   │  (none left by then)            │ last one
///      │     │                          │   ▼                                 │ cancelled
///      │     └── none came meanwhile ── disconnecting ◀───────────────────────┘
///      │         (the connection's cancel() returned; some came: connect again)
/// ```
/// `connect()` and the connection's `cancel()` run with no lock held, after the first
/// subscriber was subscribed, and never at the same time: subscribers that arrive while
/// either runs share the connection that follows rather than starting another. So an old
/// connection's `cancel()` has returned (and with it the last value it was delivering has
/// reached the subject or never will) before the next connection sends anything (issue 29).
@usableFromInline
struct AutoconnectState {
    @usableFromInline
    enum Connection {
        case disconnected
        case connecting
        case connected(any Cancellable)
        /// The connection's `cancel()` is running.
        case disconnecting
    }

    @usableFromInline var connection = Connection.disconnected
    @usableFromInline var subscribers = 0

    @inlinable init() {}

    /// A subscriber arrives; `true` if the caller connects (after subscribing it).
    @inlinable
    mutating func join() -> Bool {
        subscribers += 1
        guard case .disconnected = connection else { return false }
        connection = .connecting
        return true
    }

    /// `connect()` returned `connection`; returns it back for the caller to cancel (then to
    /// call ``disconnected()``) if every subscriber left meanwhile.
    @usableFromInline
    mutating func connected(_ connection: any Cancellable) -> (any Cancellable)? {
        guard subscribers > 0 else {
            self.connection = .disconnecting
            return connection
        }
        self.connection = .connected(connection)
        return nil
    }

    /// A subscriber cancelled; returns the connection to cancel (then to call
    /// ``disconnected()``) if it was the last one.
    @usableFromInline
    mutating func leave() -> (any Cancellable)? {
        subscribers -= 1
        guard subscribers == 0, case .connected(let connection) = connection else { return nil }
        self.connection = .disconnecting
        return connection
    }

    /// The connection's `cancel()` returned; `true` if subscribers came meanwhile and the
    /// caller connects again.
    @usableFromInline
    mutating func disconnected() -> Bool {
        guard subscribers > 0 else {
            connection = .disconnected
            return false
        }
        connection = .connecting
        return true
    }
}
