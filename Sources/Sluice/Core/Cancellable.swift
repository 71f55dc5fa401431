/// A protocol indicating that an activity or action supports cancellation: ``cancel()`` frees up any
/// allocated resources and stops side effects such as timers and network activity.
public protocol Cancellable {
    /// Cancels the activity; idempotent, and safe to call from any thread.
    func cancel()
}

extension Cancellable {
    /// Stores this cancellable, type-erased, in the specified collection.
    public func store<C: RangeReplaceableCollection>(in collection: inout C)
    where C.Element == AnyCancellable {
        AnyCancellable(self).store(in: &collection)
    }

    /// Stores this cancellable, type-erased, in the specified set.
    public func store(in set: inout Set<AnyCancellable>) {
        AnyCancellable(self).store(in: &set)
    }
}
