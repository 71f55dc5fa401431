/// The subscriber every one-for-one operator puts between its upstream and its downstream: it runs the
/// operator's ``OperatorStep`` on each value and forwards the upstream subscription itself downstream.
///
/// No lock: Combine's contract makes an upstream's signals serial (rule 3), and the only state
/// (the step's, and for a `try` operator the upstream and whether it failed) is touched only by
/// those signals. Once a step ends the stream (a `try` step failed, `prefix` reached its end),
/// the upstream is cancelled and released and nothing else reaches the downstream.
///
/// `package`, with ``OperatorStep`` and ``StepResult``: SluiceExt writes its one-for-one
/// operators (CombineExt's) as steps too.
@usableFromInline
package final class OperatorSubscriber<Step: OperatorStep, Downstream: Subscriber>: Subscriber,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Step.Output, Downstream.Failure == Step.Failure {
    @usableFromInline package typealias Input = Step.Input
    @usableFromInline package typealias Failure = Step.UpstreamFailure

    @usableFromInline package let combineIdentifier = CombineIdentifier()
    @usableFromInline let downstream: Downstream
    @exclusivity(unchecked) @usableFromInline var step: Step
    /// Kept only by a step that can end the stream, to cancel it then.
    @exclusivity(unchecked) @usableFromInline var upstream: (any Subscription)?
    @exclusivity(unchecked) @usableFromInline var ended = false
    @usableFromInline package let description: String

    @inlinable
    package init(step: Step, downstream: Downstream) {
        self.step = step
        self.downstream = downstream
        description = step.name
    }

    @inlinable
    package func receive(subscription: any Subscription) {
        if Step.canEnd { upstream = subscription }
        step.observe(subscription: subscription)
        downstream.receive(subscription: subscription)
    }

    @inlinable
    package func receive(_ input: Input) -> Subscribers.Demand {
        if Step.canEnd && ended { return .none }
        return step.receive(input).deliver(to: downstream, ending: end)
    }

    @inlinable
    package func receive(completion: Subscribers.Completion<Failure>) {
        if Step.canEnd {
            if ended { return }
            upstream = nil
        }
        step.observe(completion: completion)
        switch completion {
        case .finished: downstream.receive(completion: .finished)
        case .failure(let failure): downstream.receive(completion: .failure(step.mapFailure(failure)))
        }
    }

    /// Marks the stream ended and hands back the upstream, to cancel.
    @inlinable @discardableResult
    func end() -> (any Subscription)? {
        ended = true
        defer { upstream = nil }
        return upstream
    }

    @usableFromInline package var customMirror: Mirror {
        if let children = step.constantMirrorChildren { return Mirror(self, children: children) }
        return Mirror(self, children: Step.mirror == .empty ? [:] : ["downstream": downstream])
    }
    @usableFromInline package var playgroundDescription: Any { description }
}
