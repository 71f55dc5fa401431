/// One subscriber's subscription to a ``Future``. States and transitions of ``FutureConduit/Machine``
/// (under the conduit's lock; signals are sent after it):
///
/// ```text
/// active(result: nil, demanded) ──request──▶ active(demanded: true)
/// active(result: nil) ──fulfil(success)──▶ active(result)                 (no demand yet)
/// active(demanded: true) ──fulfil(success)──▶ delivering  → value, .finished ──▶ done
/// active ──fulfil(failure)──▶ delivering                  → failure (no demand needed) ──▶ done
/// active(result: success) ──request──▶ delivering         → value, .finished ──▶ done
/// active ──cancel──▶ done                                 → leave the future
/// delivering ──cancel──▶ done;  done ──anything──▶ done
/// ```
///
/// The conduit holds its ``Future`` while active or delivering, so that its mirror shows it as Combine's
/// does (`parent`, `subject`); the storage holds the conduit only until then, so the cycle ends with the
/// stream. `@inlinable`, with ``Future`` and its storage, so clients specialise it.
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
            case leave(Future<Output, Failure>, Downstream)
        }

        @usableFromInline
        enum State {
            case active(Downstream, Future<Output, Failure>, result: Result<Output, Failure>?, demanded: Bool)
            case delivering(Downstream, Future<Output, Failure>)
            case done
        }

        @usableFromInline var state: State

        @inlinable
        init(downstream: Downstream, parent: Future<Output, Failure>) {
            state = .active(downstream, parent, result: nil, demanded: false)
        }

        @inlinable
        mutating func request() -> Action {
            guard case .active(let downstream, let parent, let result, _) = state else { return .none }
            if let result {
                state = .delivering(downstream, parent)
                return .deliver(downstream, result)
            }
            state = .active(downstream, parent, result: nil, demanded: true)
            return .none
        }

        @inlinable
        mutating func fulfil(_ result: Result<Output, Failure>) -> Action {
            guard case .active(let downstream, let parent, nil, let demanded) = state else { return .none }
            let isFailure = if case .failure = result { true } else { false }
            if isFailure || demanded {
                state = .delivering(downstream, parent)
                return .deliver(downstream, result)
            }
            state = .active(downstream, parent, result: result, demanded: false)
            return .none
        }

        @inlinable
        mutating func cancel() -> Action {
            switch state {
            case .active(let downstream, let parent, _, _):
                state = .done
                return .leave(parent, downstream)
            case .delivering:
                state = .done
                return .none
            case .done:
                return .none
            }
        }

        @inlinable
        mutating func delivered() {
            if case .delivering = state { state = .done }
        }

    }

    @usableFromInline let machine: Locked<Machine>

    @inlinable
    init(downstream: Downstream, parent: Future<Output, Failure>) {
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
            machine.withLock { $0.delivered() }
        case .deliver(let downstream, .failure(let failure)):
            downstream.receive(completion: .failure(failure))
            machine.withLock { $0.delivered() }
        case .leave(let parent, _):
            // The subscriber is released here, after the lock.
            parent.storage.remove(combineIdentifier)
        }
    }

    @usableFromInline var description: String { "Future" }

    /// Combine's children: the future (`parent`, and again as `subject`) and the downstream
    /// while the stream lasts, `nil` after; whether the downstream has asked for the value.
    @usableFromInline var customMirror: Mirror {
        let (downstream, parent, demanded) = machine.withLock {
            machine -> (Downstream?, Future<Output, Failure>?, Bool) in
            switch machine.state {
            case .active(let downstream, let parent, _, let demanded): (downstream, parent, demanded)
            case .delivering(let downstream, let parent): (downstream, parent, false)
            case .done: (nil, nil, false)
            }
        }
        return Mirror(
            self,
            children: [
                "parent": parent as Any, "downstream": downstream as Any,
                "hasAnyDemand": demanded, "subject": parent as Any
            ],
            displayStyle: nil)
    }

    @usableFromInline var playgroundDescription: Any { description }
}
