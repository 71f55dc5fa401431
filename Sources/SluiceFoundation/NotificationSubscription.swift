import Foundation
import Sluice

/// The subscription of one `NotificationCenter.Publisher` subscriber: it owns the
/// center's observer, added before the subscriber gets the subscription (as in Combine) and
/// removed when it cancels or the subscription is released, and delivers each notification
/// through an ``ObserverDelivery`` (on the posting thread, within demand).
final class NotificationSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Notification, Downstream.Failure == Never {
    private struct Observer {
        let center: NotificationCenter
        let token: any NSObjectProtocol

        func remove() { center.removeObserver(token) }
    }

    private let delivery: ObserverDelivery<Downstream, Observer>
    private let name: Notification.Name
    private let object: AnyObject?

    init(downstream: Downstream, name: Notification.Name, object: AnyObject?) {
        delivery = ObserverDelivery(downstream: downstream)
        self.name = name
        self.object = object
    }

    deinit {
        // Released without a cancel: the center must not keep an observer for nobody.
        delivery.end()?.remove()
    }

    /// Adds the observer to `center`.
    func observe(_ center: NotificationCenter) {
        let entry = CallbackEntry<Notification> { [weak self] notification in self?.delivery.offer(notification) }
        let observer = Observer(
            center: center, token: center.addObserver(forName: name, object: object, queue: nil, using: entry.callback))
        if !delivery.keep(observer) { observer.remove() }
    }

    func request(_ demand: Subscribers.Demand) { _ = delivery.request(demand) }

    func cancel() { delivery.end()?.remove() }

    var description: String { "NotificationCenter Observer" }

    var customMirror: Mirror {
        Mirror(self, children: ["name": name, "object": object as Any, "demand": delivery.demand])
    }

    var playgroundDescription: Any { description }
}
