/// The connection of one ``Publishers/Autoconnect``, under its lock: how many subscribers it
/// has and whether its upstream is connected.
///
/// A subscriber counts from its subscribe until it cancels (once, however often it calls
/// `cancel()`). A completion does not end its count, as in Combine: an upstream that has
/// completed stays connected, and a later subscriber gets the completion, not a new run.
///
/// ```text
/// disconnected ──first subscriber──▶ connecting ──connect() returned──▶ connected
///      ▲                                  │  (none left by then: the connection is cancelled)
///      └──────────last one cancelled──────┴──────────────────────────────────┘
/// ```
/// `connect()` runs with no lock held, after the first subscriber was subscribed. Subscribers
/// that arrive while it runs share that connection rather than starting another.
@usableFromInline
struct AutoconnectState {
    @usableFromInline
    enum Connection {
        case disconnected
        case connecting
        case connected(any Cancellable)
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

    /// `connect()` returned `connection`; returns it back for the caller to cancel if every
    /// subscriber left meanwhile.
    @usableFromInline
    mutating func connected(_ connection: any Cancellable) -> (any Cancellable)? {
        guard subscribers > 0 else {
            self.connection = .disconnected
            return connection
        }
        self.connection = .connected(connection)
        return nil
    }

    /// A subscriber cancelled; returns the connection to cancel if it was the last one.
    @usableFromInline
    mutating func leave() -> (any Cancellable)? {
        subscribers -= 1
        guard subscribers == 0, case .connected(let connection) = connection else { return nil }
        self.connection = .disconnected
        return connection
    }
}
