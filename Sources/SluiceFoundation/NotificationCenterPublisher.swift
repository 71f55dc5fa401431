import Foundation
import Sluice

extension NotificationCenter {
    /// A publisher that emits the notifications a center posts with one name (and, optionally, from one object).
    ///
    /// Each subscriber gets its own observer, added when it subscribes and removed when it cancels (or when its
    /// subscription is released). The publisher never completes. Demand: a notification posted while the
    /// subscriber has no outstanding demand is dropped, as in Combine: request `.unlimited` to see them all.
    ///
    /// Threading: a notification is delivered on the posting thread, inside `post(_:)`. One that comes while
    /// another is being delivered (from another thread, or from inside `receive(_:)`) is queued for the thread
    /// already delivering, so signals stay serial; its own `post(_:)` returns without waiting.
    ///
    /// <!-- snippet: NotificationCenterPublisherRefresh -->
    /// ```swift
    /// let cancellable = NotificationCenter.default
    ///     .publisher(for: .userDidLogIn)   // a name the app declares
    ///     .sink { notification in refresh() }
    /// ```
    public struct Publisher: Sluice.Publisher {
        public typealias Output = Notification
        public typealias Failure = Never

        /// The notification center this publisher observes.
        public let center: NotificationCenter

        /// The name of the notifications it emits.
        public let name: Notification.Name

        /// The object whose notifications it emits, or `nil` for notifications from any object.
        public let object: AnyObject?

        /// A publisher of `center`'s notifications named `name`, from `object` (from any object if `nil`).
        public init(center: NotificationCenter, name: Notification.Name, object: AnyObject? = nil) {
            self.center = center
            self.name = name
            self.object = object
        }

        /// Adds an observer for `subscriber`, then gives it its subscription.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Notification, S.Failure == Never {
            let subscription = NotificationSubscription(downstream: subscriber, name: name, object: object)
            subscription.observe(center)
            subscriber.receive(subscription: subscription)
        }
    }

    /// A publisher of the notifications this center posts named `name`, from `object` (from any object if
    /// `nil`). See ``Publisher`` for demand and threading.
    public func publisher(for name: Notification.Name, object: AnyObject? = nil) -> NotificationCenter.Publisher {
        Publisher(center: self, name: name, object: object)
    }
}

extension NotificationCenter.Publisher: Equatable {
    /// Whether both observe the same center (instance), name and object (the same instance, or both `nil`).
    public static func == (lhs: NotificationCenter.Publisher, rhs: NotificationCenter.Publisher) -> Bool {
        lhs.center === rhs.center && lhs.name == rhs.name && lhs.object === rhs.object
    }
}
