// What the stress tests look at inside a subject and a publisher's subscribers, to check that
// cancelled subscribers are gone. The only file of this target with `@testable import`: the
// subject's subscriber list has no public view (Combine has none either).
@testable import Sluice

extension PassthroughSubject {
    /// The subscriptions the subject still holds (cancelled and completed ones are removed).
    var attachedSubscriptions: Int { storage.conduitCount }
}

/// A publisher that passes each subscriber on to `upstream` unchanged and keeps a `weak`
/// reference to it (when it is a class), so a test can see that the subscribers the upstream
/// was given are released, even those it cannot reach (a `values` loop's subscriber).
struct SubscriberTracking<Upstream: Publisher>: Publisher, Sendable where Upstream: Sendable {
    typealias Output = Upstream.Output
    typealias Failure = Upstream.Failure

    let upstream: Upstream
    let tracked = WeakObjects()

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        if S.self is AnyClass { tracked.append(subscriber as AnyObject) }
        upstream.subscribe(subscriber)
    }
}

/// `weak` references to objects, appended from any thread.
final class WeakObjects: Sendable {
    private struct Reference: @unchecked Sendable {
        // Unchecked: only ever read to compare with nil, never to use the object; `weak` loads
        // and stores are atomic in Swift's runtime.
        weak var object: AnyObject?
    }

    private let references = Locked<[Reference]>([])

    func append(_ object: AnyObject) { references.withLock { $0.append(Reference(object: object)) } }

    /// The tracked objects (class subscribers) seen so far.
    var count: Int { references.withLock { $0.count } }
    /// The tracked objects still alive.
    var alive: Int { references.withLock { $0.count { $0.object != nil } } }
}

extension PassthroughSubject {
    /// The most values waiting in any one subscriber's hand-over queue right now.
    var longestQueue: Int { storage.longestQueue }
}

/// How many values a hand-over queue holds before a sender from another thread waits.
var handOverBound: Int { SerialDelivery<Int, Never>.bound }
