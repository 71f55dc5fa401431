/// One subscriber's subscription to a ``Future``.
///
/// States and transitions of ``FutureConduit/Machine`` (under the conduit's lock; signals
/// are sent after it):
///
/// ```text
/// active(result: nil, demanded) ──request──▶ active(demanded: true)
/// active(result: nil) ──fulfil(success)──▶ active(result)                 (no demand yet)
/// active(demanded: true) ──fulfil(success)──▶ done        → value, .finished
/// active ──fulfil(failure)──▶ done                        → failure (no demand needed)
/// active(result: success) ──request──▶ done               → value, .finished
/// active ──cancel──▶ done                                 → leave the future
/// done ──anything──▶ done
/// ```
///
/// `@inlinable`, with ``Future`` and its storage, so that clients specialise the conduit's
/// creation and fulfilment: unspecialised, `Future(…).sink` took about twice as long per
/// subscriber. Its `request` and `cancel`, reached through `any Subscription`, still run
/// generic code.
@usableFromInline
final class FutureConduit<Downstream: Subscriber>: Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
{
    @usableFromInline typealias Output = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline
    struct Machine {
        @usableFromInline
        enum Action {
            case none
            case deliver(Downstream, Result<Output, Failure>)
            case leave(FutureStorage<Output, Failure>, Downstream)
        }

        @usableFromInline
        enum State {
            case active(Downstream, FutureStorage<Output, Failure>, result: Result<Output, Failure>?, demanded: Bool)
            case done
        }

        @usableFromInline var state: State

        @inlinable
        init(downstream: Downstream, parent: FutureStorage<Output, Failure>) {
            state = .active(downstream, parent, result: nil, demanded: false)
        }

        @inlinable
        mutating func request() -> Action {
            guard case .active(let downstream, let parent, let result, _) = state else { return .none }
            if let result {
                state = .done
                return .deliver(downstream, result)
            }
            state = .active(downstream, parent, result: nil, demanded: true)
            return .none
        }

        @inlinable
        mutating func fulfil(_ result: Result<Output, Failure>) -> Action {
            guard case .active(let downstream, let parent, nil, let demanded) = state else { return .none }
            if case .failure = result {
                state = .done
                return .deliver(downstream, result)
            }
            if demanded {
                state = .done
                return .deliver(downstream, result)
            }
            state = .active(downstream, parent, result: result, demanded: false)
            return .none
        }

        @inlinable
        mutating func cancel() -> Action {
            guard case .active(let downstream, let parent, _, _) = state else { return .none }
            state = .done
            return .leave(parent, downstream)
        }

        @inlinable
        var hasAnyDemand: Bool {
            if case .active(_, _, _, let demanded) = state { return demanded }
            return false
        }
    }

    @usableFromInline let machine: Locked<Machine>

    @inlinable
    init(downstream: Downstream, parent: FutureStorage<Output, Failure>) {
        machine = Locked(Machine(downstream: downstream, parent: parent))
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        if demand == .none { Violation.zeroDemandRequested() }
        run(machine.withLock { $0.request() })
    }

    @inlinable
    func cancel() {
        run(machine.withLock { $0.cancel() })
    }

    @inlinable
    func fulfil(_ result: Result<Output, Failure>) {
        run(machine.withLock { $0.fulfil(result) })
    }

    @inlinable
    func run(_ action: Machine.Action) {
        switch action {
        case .none:
            break
        case .deliver(let downstream, .success(let output)):
            _ = downstream.receive(output)
            downstream.receive(completion: .finished)
        case .deliver(let downstream, .failure(let failure)):
            downstream.receive(completion: .failure(failure))
        case .leave(let parent, _):
            // The subscriber is released here, after the lock.
            parent.remove(combineIdentifier)
        }
    }

    @usableFromInline var description: String { "Future" }

    @usableFromInline var customMirror: Mirror {
        Mirror(self, children: ["hasAnyDemand": machine.withLock { $0.hasAnyDemand }])
    }

    @usableFromInline var playgroundDescription: Any { description }
}
