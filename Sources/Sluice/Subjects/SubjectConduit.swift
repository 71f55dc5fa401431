/// One subscriber's subscription to a subject: its state (``ConduitState``) lives in the subject's
/// ``SubjectStorage``, under the subject's lock; this object forwards `request` and `cancel` there, and keeps
/// the subject alive until cancel or completion, as Combine's does. Its witnesses run unspecialised, so they
/// only call ``entryPoints``, capture-free closures made in the subject's inlinable `receive(subscriber:)`.
@usableFromInline
final class SubjectConduit<Output, Failure: Error>: Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
{
    @usableFromInline
    struct EntryPoints: Sendable {
        @usableFromInline let request: @Sendable (SubjectConduit, Subscribers.Demand) -> Void
        @usableFromInline let cancel: @Sendable (SubjectConduit, ObjectIdentifier?) -> Bool

        /// Call only where `Output` and `Failure` are concrete (the closures are specialised there).
        @inlinable
        init() {
            request = { conduit, demand in conduit.requestNow(demand) }
            cancel = { conduit, owner in conduit.cancelNow(reportingFor: owner) }
        }
    }

    /// The subject's storage and the subject, dropped on cancel and completion; then the demand at the end,
    /// which the mirror still shows, as Combine's.
    @usableFromInline let parent: Locked<Link>

    @usableFromInline
    struct Link {
        @usableFromInline var storage: SubjectStorage<Output, Failure>?
        /// Keeps the subject alive while the subscription lasts, as Combine's (a connection holds it weakly).
        @usableFromInline var subject: SubjectRetainer?
        @usableFromInline var demandAtEnd = Subscribers.Demand.none
        @inlinable init(_ storage: SubjectStorage<Output, Failure>, subject: AnyObject) {
            self.storage = storage
            self.subject = SubjectRetainer(object: subject)
        }
    }

    @usableFromInline let kind: SubjectKind
    @usableFromInline let slot = SlotHint()
    @usableFromInline let entryPoints: EntryPoints

    @inlinable
    init(
        parent: SubjectStorage<Output, Failure>,
        subject: AnyObject,
        kind: SubjectKind,
        entryPoints: EntryPoints
    ) {
        self.parent = Locked(Link(parent, subject: subject))
        self.kind = kind
        self.entryPoints = entryPoints
    }

    /// Adds demand; delivers a `CurrentValueSubject`'s current value on the first request. Traps on `.none`.
    @usableFromInline
    func request(_ demand: Subscribers.Demand) {
        entryPoints.request(self, demand)
    }

    @inlinable
    func requestNow(_ demand: Subscribers.Demand) {
        if demand == .none { Violation.zeroDemandRequested() }
        // Combine's `objectWillChange` sends every change once its subscriber has asked for any.
        let demand = kind.countsDemand ? demand : .unlimited
        parent.withLock { $0.storage }?.request(self, demand)
    }

    @usableFromInline
    func cancel() {
        _ = entryPoints.cancel(self, nil)
    }

    /// Whether the subject will tell `owner` when the delivery in progress has returned
    /// (``DeferredCancelSubscription``).
    @inlinable
    func cancelNow(reportingFor owner: ObjectIdentifier?) -> Bool {
        // The subject (idempotent) learns of the cancel before the reference is dropped: else a cancel
        // finding it dropped could return before a concurrent first one reached the subject, and a value
        // follow (rule 4). While a deliverer is out it stays, so the owner's later cancel learns of it.
        guard let parent = parent.withLock({ $0.storage }) else { return false }
        let (released, delivering, reportsDeliveryEnd) = parent.cancel(self, reportingFor: owner)
        if !delivering { detach(demandAtEnd: released?.machine.demand ?? .none) }
        withExtendedLifetime(released) {}  // the subscriber is released after unlocking
        return reportsDeliveryEnd
    }

    /// Drops the storage, keeping the demand at the end (the first time; a later call changes nothing).
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

    /// Combine's children: the subject (`parent`, again as `subject`), the subscriber and its demand, only
    /// the demand at the end once ended; an `ObservableObjectPublisher`'s shows only the subscriber.
    @usableFromInline
    var customMirror: Mirror {
        let (parent, demandAtEnd) = self.parent.withLock { ($0.storage, $0.demandAtEnd) }
        let (downstream, demand) = parent?.mirrored(self) ?? (nil, demandAtEnd)
        if kind.mirrorsOnlyDownstream { return Mirror(self, children: ["downstream": downstream as Any]) }
        return Mirror(
            self,
            children: [
                "parent": parent as Any, "downstream": downstream as Any, "demand": demand, "subject": parent as Any
            ]
        )
    }

    @usableFromInline
    var description: String { kind.subscriptionName }

    @usableFromInline
    var playgroundDescription: Any { description }
}

extension SubjectConduit: DeferredCancelSubscription {
    @usableFromInline
    func cancelReportingDelivery(owner: AnyObject) -> Bool { entryPoints.cancel(self, ObjectIdentifier(owner)) }
}

// Sendable: the one mutable reference is behind a lock; the subscriber's state is behind the subject's.
extension SubjectConduit: Sendable where Output: Sendable {}
extension SubjectConduit.Link: Sendable where Output: Sendable {}

/// A strong reference that only keeps a subject alive while a subscription lasts. `@unchecked Sendable`:
/// nothing reads or calls through it (holding an object from any thread is safe).
@usableFromInline
struct SubjectRetainer: @unchecked Sendable {
    @usableFromInline let object: AnyObject
    @inlinable init(object: AnyObject) { self.object = object }
}
