/// One subscriber's subscription to a subject. Its state (``ConduitState``) lives in
/// the subject's ``SubjectStorage``, under the subject's one lock; this object is what the
/// subscriber holds, forwarding `request` and `cancel` there.
///
/// The subscriber is reached only through the two closures made in the subject's inlinable
/// `receive(subscriber:)`, i.e. specialised for the concrete subscriber in the client, so the
/// per-value call to the subscriber is direct. Cancelling and completing release them and
/// drop the references to the subject's storage and to the subject (which the subscription
/// keeps alive until then, as Combine's does).
///
/// Its `request` and `cancel` are protocol witnesses of a generic class, so they run
/// unspecialised, and every generic step there (the lock, the storage, the tuples it returns)
/// would look up generic metadata. They only call ``entryPoints``: two closures that capture
/// nothing, made in that same inlinable `receive(subscriber:)`, whose bodies are the
/// specialised `requestNow` and `cancelNow`.
@usableFromInline
final class SubjectConduit<Output, Failure: Error>: Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
{
    /// The conduit's work, specialised where the subject's types are known.
    @usableFromInline
    struct EntryPoints: Sendable {
        @usableFromInline let request: @Sendable (SubjectConduit, Subscribers.Demand) -> Void
        @usableFromInline let cancel: @Sendable (SubjectConduit, ObjectIdentifier?) -> Bool

        /// Call only where `Output` and `Failure` are concrete (the closures are specialised
        /// where this runs).
        @inlinable
        init() {
            request = { conduit, demand in conduit.requestNow(demand) }
            cancel = { conduit, owner in conduit.cancelNow(reportingFor: owner) }
        }
    }

    /// The subject's shared state and the subject itself, dropped on cancel and completion;
    /// then the demand that was outstanding, which the mirror still shows, as Combine's.
    @usableFromInline let parent: Locked<Link>

    /// What ``parent`` holds.
    @usableFromInline
    struct Link {
        @usableFromInline var storage: SubjectStorage<Output, Failure>?
        /// Keeps the subject alive while the subscription lasts, as Combine's subscription
        /// does: a connection (`multicast(subject:)`, `subscribe(subject)`) holds it weakly.
        @usableFromInline var subject: SubjectRetainer?
        @usableFromInline var demandAtEnd = Subscribers.Demand.none
        @inlinable init(_ storage: SubjectStorage<Output, Failure>, subject: AnyObject) {
            self.storage = storage
            self.subject = SubjectRetainer(object: subject)
        }
    }

    /// The subject it subscribes to, which names it.
    @usableFromInline let kind: SubjectKind
    /// Where its entry is in the subject's slots.
    @usableFromInline let slot = SlotHint()
    @usableFromInline let entryPoints: EntryPoints

    @inlinable
    init(parent: SubjectStorage<Output, Failure>, subject: AnyObject, kind: SubjectKind, entryPoints: EntryPoints) {
        self.parent = Locked(Link(parent, subject: subject))
        self.kind = kind
        self.entryPoints = entryPoints
    }

    /// Adds demand; delivers a `CurrentValueSubject`'s current value on the first request.
    /// Traps on `.none`.
    @usableFromInline
    func request(_ demand: Subscribers.Demand) {
        entryPoints.request(self, demand)
    }

    @inlinable
    func requestNow(_ demand: Subscribers.Demand) {
        if demand == .none { Violation.zeroDemandRequested() }
        parent.withLock { $0.storage }?.request(self, demand)
    }

    /// Stops delivery, releases the subscriber and detaches from the subject. Idempotent.
    @usableFromInline
    func cancel() {
        _ = entryPoints.cancel(self, nil)
    }

    /// Cancels; returns whether the subject will tell `owner` when the delivery in progress
    /// has returned (see ``DeferredCancelSubscription``).
    @inlinable
    func cancelNow(reportingFor owner: ObjectIdentifier?) -> Bool {
        // The subject learns of the cancel before the reference to it is dropped: a cancel
        // that found it already dropped would otherwise return while a concurrent first
        // cancel had not yet reached the subject, and a value could follow it (rule 4).
        // The subject's side is idempotent. While a deliverer is out, the reference stays
        // (the deliverer drops it on return), so that a later cancel by the owner still
        // learns that it is out.
        guard let parent = parent.withLock({ $0.storage }) else { return false }
        let (released, delivering, reportsDeliveryEnd) = parent.cancel(self, reportingFor: owner)
        if !delivering { detach(demandAtEnd: released?.machine.demand ?? .none) }
        withExtendedLifetime(released) {}  // the subscriber is released after unlocking
        return reportsDeliveryEnd
    }

    /// Drops the reference to the subject's storage, keeping the demand that was outstanding
    /// when the subscription ended (the first time: a later call changes nothing).
    @inlinable
    func detach(demandAtEnd demand: Subscribers.Demand) {
        let released = parent.withLock { link in
            defer {
                link.storage = nil
                link.subject = nil
            }
            if link.storage != nil { link.demandAtEnd = demand }
            return (link.storage, link.subject)
        }
        withExtendedLifetime(released) {}  // released after unlocking (the subject's deinit may run)
    }

    /// Combine's children: the subject (`parent`, and again as `subject`), the subscriber and
    /// its outstanding demand while the subscription lasts, then only the demand it had when it
    /// ended; an `ObservableObjectPublisher`'s shows only the subscriber.
    @usableFromInline
    var customMirror: Mirror {
        let (parent, demandAtEnd) = self.parent.withLock { ($0.storage, $0.demandAtEnd) }
        let (downstream, demand) = parent?.mirrored(self) ?? (nil, demandAtEnd)
        if kind.mirrorsOnlyDownstream { return Mirror(self, children: ["downstream": downstream as Any]) }
        return Mirror(self, children: ["parent": parent as Any, "downstream": downstream as Any, "demand": demand, "subject": parent as Any])
    }

    /// `"PassthroughSubject"`, `"CurrentValueSubject"` (or the name of the subject behind
    /// `@Published` or `ObservableObject`), as Combine names the subscription.
    @usableFromInline
    var description: String { kind.subscriptionName }

    /// The same as ``description``.
    @usableFromInline
    var playgroundDescription: Any { description }
}

extension SubjectConduit: DeferredCancelSubscription {
    @usableFromInline
    func cancelReportingDelivery(owner: AnyObject) -> Bool { entryPoints.cancel(self, ObjectIdentifier(owner)) }
}

// Sendable by construction: the one mutable reference is behind a lock; the subscriber's state
// is in the subject's storage, behind its lock.
extension SubjectConduit: Sendable where Output: Sendable {}
extension SubjectConduit.Link: Sendable where Output: Sendable {}

/// A strong reference to a subject that is only held, never used: it keeps the subject alive
/// while a subscription to it lasts.
///
/// `@unchecked Sendable`: nothing reads or calls through it (holding an object from any thread
/// is safe), so the subject's own sendability does not matter.
@usableFromInline
struct SubjectRetainer: @unchecked Sendable {
    @usableFromInline let object: AnyObject
    @inlinable init(object: AnyObject) { self.object = object }
}
