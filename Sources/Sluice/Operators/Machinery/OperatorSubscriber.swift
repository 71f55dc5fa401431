/// The subscriber every one-for-one operator puts between its upstream and its downstream:
/// it runs the operator's ``OperatorStep`` on each value and forwards the upstream
/// subscription itself downstream.
///
/// No lock: Combine's contract makes an upstream's signals serial (rule 3), and the only state
/// (the step's, and for a `try` operator the upstream and whether it failed) is touched only by
/// those signals. After a `try` step fails, nothing else reaches the downstream and the
/// upstream subscription is released.
@usableFromInline
final class OperatorSubscriber<Step: OperatorStep, Downstream: Subscriber>: Subscriber,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Step.Output, Downstream.Failure == Step.Failure {
    @usableFromInline typealias Input = Step.Input
    @usableFromInline typealias Failure = Step.UpstreamFailure

    @usableFromInline let combineIdentifier = CombineIdentifier()
    @usableFromInline let downstream: Downstream
    @exclusivity(unchecked) @usableFromInline var step: Step
    /// Kept only by a step that can fail, to cancel on failure.
    @exclusivity(unchecked) @usableFromInline var upstream: (any Subscription)?
    @exclusivity(unchecked) @usableFromInline var failed = false

    @inlinable
    init(step: Step, downstream: Downstream) {
        self.step = step
        self.downstream = downstream
    }

    @inlinable
    func receive(subscription: any Subscription) {
        if Step.canFail { upstream = subscription }
        downstream.receive(subscription: subscription)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        if Step.canFail && failed { return .none }
        switch step.receive(input) {
        case .emit(let output):
            return downstream.receive(output)
        case .drop:
            return .max(1)
        case .fail(let failure):
            fail(failure)
            return .none
        }
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        if Step.canFail {
            if failed { return }
            upstream = nil
        }
        switch completion {
        case .finished: downstream.receive(completion: .finished)
        case .failure(let failure): downstream.receive(completion: .failure(step.mapFailure(failure)))
        }
    }

    @usableFromInline
    func fail(_ failure: Step.Failure) {
        failed = true
        let upstream = self.upstream
        self.upstream = nil
        upstream?.cancel()
        downstream.receive(completion: .failure(failure))
    }

    @usableFromInline var description: String { Step.description }
    @usableFromInline var customMirror: Mirror { Mirror(self, children: ["downstream": downstream]) }
    @usableFromInline var playgroundDescription: Any { description }
}
