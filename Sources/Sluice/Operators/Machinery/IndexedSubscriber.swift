/// An operator subscribed to several publishers (merge's upstreams, flatMap's and
/// switchToLatest's inners) through one ``IndexedSubscriber`` each, told which one spoke.
@usableFromInline
package protocol IndexedSubscriberParent: AnyObject, CustomStringConvertible, CustomCombineIdentifierConvertible {
    /// The elements and failure of the publishers it subscribes to with an index (named apart
    /// from `Subscriber`'s, since flatMap is also its upstream's subscriber).
    associatedtype IndexedInput
    associatedtype IndexedFailure: Error

    func receive(subscription: any Subscription, at index: Int)
    func receive(_ input: IndexedInput, at index: Int) -> Subscribers.Demand
    func receive(completion: Subscribers.Completion<IndexedFailure>, at index: Int)
}

/// The subscriber of one of a parent operator's publishers: it passes every signal on with
/// its index, and describes itself as the parent does ("Merge", "FlatMap", …), its mirror
/// naming the parent's identifier (`parentSubscription`), as Combine's inner subscribers do.
@usableFromInline
package struct IndexedSubscriber<Parent: IndexedSubscriberParent>: Subscriber, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
{
    @usableFromInline package typealias Input = Parent.IndexedInput
    @usableFromInline package typealias Failure = Parent.IndexedFailure
    @usableFromInline let parent: Parent
    @usableFromInline let index: Int
    @usableFromInline package let combineIdentifier = CombineIdentifier()

    @inlinable package init(parent: Parent, index: Int) {
        self.parent = parent
        self.index = index
    }

    @inlinable package func receive(subscription: any Subscription) {
        parent.receive(subscription: subscription, at: index)
    }
    @inlinable package func receive(_ input: Input) -> Subscribers.Demand { parent.receive(input, at: index) }
    @inlinable package func receive(completion: Subscribers.Completion<Failure>) {
        parent.receive(completion: completion, at: index)
    }
    @usableFromInline package var description: String { parent.description }
    @usableFromInline package var customMirror: Mirror {
        Mirror(self, children: ["parentSubscription": parent.combineIdentifier])
    }
    @usableFromInline package var playgroundDescription: Any { description }
}
