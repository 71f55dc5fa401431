/// The subscriber side of a subject's storage: each step runs under the lock, calling out after (rule 6).
extension SubjectStorage {
    /// Adds a conduit, or returns the completion if the subject already completed.
    @inlinable
    func add(
        _ conduit: SubjectConduit<Output, Failure>,
        _ machine: Machine
    ) -> Subscribers.Completion<Failure>? {
        state.withLock { state in
            if let completion = state.completion { return completion }
            state.append(Entry(conduit: conduit, machine: machine))
            return nil
        }
    }

    @inlinable
    func request(_ conduit: SubjectConduit<Output, Failure>, _ demand: Subscribers.Demand) {
        let (action, upstreams) = state.withLock { state -> (Machine.DeliveryAction, [UpstreamSubscription]) in
            guard let index = state.index(of: conduit) else { return (.stop, []) }
            let current = state.currentValue
            let action = state[index].machine.request(demand) { current }
            if state.upstreamsOpen { return (action, []) }
            state.upstreamsOpen = true
            return (action, state.upstreams)
        }
        // The first demand of any subscriber opens the upstreams, as in Combine.
        for upstream in upstreams { upstream.base.request(.unlimited) }
        guard case .deliver(let receiver, let value) = action else { return }
        drain(receiver, after: receiver.receive(value))
    }

    /// Removes the conduit's entry and returns it (it holds the subscriber) for the caller to release after
    /// unlocking; `nil` if already terminated, or if a deliverer is out (`delivering`: it removes the entry
    /// and detaches the conduit on return, and calls `deliveryEnded` if `reportsDeliveryEnd`).
    @inlinable
    func cancel(
        _ conduit: SubjectConduit<Output, Failure>, reportingFor owner: ObjectIdentifier?
    ) -> (released: Entry?, delivering: Bool, reportsDeliveryEnd: Bool) {
        state.withLock { state in
            guard let index = state.index(of: conduit) else { return (nil, false, false) }
            if state[index].machine.cancelIfDelivering(reportingFor: owner) {
                return (nil, true, state[index].machine.reportsDeliveryEnd)
            }
            return (state.remove(at: index), false, false)
        }
    }

    func mirrored(_ conduit: SubjectConduit<Output, Failure>) -> (downstream: Any?, demand: Subscribers.Demand) {
        state.withLock { state in
            guard let index = state.index(of: conduit) else { return (nil, .none) }
            return (state[index].machine.receiver?.subscriber, state[index].machine.demand)
        }
    }

    /// The completions to deliver now (a busy subscriber's deliverer delivers its own); `nil` if completed.
    func complete(
        _ completion: Subscribers.Completion<Failure>
    ) -> [(Receiver, SubjectConduit<Output, Failure>, Subscribers.Demand)]? {
        state.withLock { state in
            guard state.completion == nil else { return nil }
            state.completion = completion
            var now: [(Receiver, SubjectConduit<Output, Failure>, Subscribers.Demand)] = []
            var delivering: [Entry] = []
            for var entry in state.liveEntries {
                if case .complete(let receiver, _, let demand) = entry.machine.finish(completion) {
                    now.append((receiver, entry.conduit, demand))
                } else if !entry.machine.isTerminated {
                    delivering.append(entry)
                }
            }
            state.replace(with: delivering)
            return now
        }
    }

    /// Completes the subject (sticky) and delivers the completion to every idle subscriber after unlocking.
    func send(completion: Subscribers.Completion<Failure>) {
        guard let now = complete(completion) else { return }
        for (receiver, conduit, demand) in now {
            receiver.receive(completion: completion)
            conduit.detach(demandAtEnd: demand)
        }
    }

    /// Keeps the upstream (cancelled by ``cancelUpstreams()``) and requests `.unlimited`, as Combine's
    /// subjects do: a `CurrentValueSubject` at once, a `PassthroughSubject` once any subscriber has asked for
    /// a value, so a cold upstream does not run into a subject nobody listens to.
    func send(subscription: any Subscription) {
        let demanded = state.withLock { state in
            state.upstreams.append(UpstreamSubscription(subscription))
            return state.upstreamsOpen
        }
        if demanded { subscription.request(.unlimited) }
    }

    /// The subject's `deinit`: cancels the upstreams, after unlocking.
    func cancelUpstreams() {
        let upstreams = state.withLock { state in
            defer { state.upstreams = [] }
            return state.upstreams
        }
        for upstream in upstreams { upstream.base.cancel() }
    }

    /// `receive(subscriber:)` of `subject`: adds a conduit whose receiver is specialised here, in the client.
    /// The conduit keeps `subject` alive until it ends, as Combine's subscription does.
    @inlinable
    func subscribe<S: Subscriber>(_ subscriber: S, to subject: AnyObject)
    where S.Input == Output, S.Failure == Failure {
        let conduit = SubjectConduit<Output, Failure>(parent: self, subject: subject, kind: kind, entryPoints: .init())
        let receiver = Receiver(subscriber)
        let machine = ConduitState(receiver: receiver, deliversCurrentValue: deliversCurrentValue)
        if let completion = add(conduit, machine) {
            conduit.detach(demandAtEnd: .none)
            subscriber.receive(subscription: Subscriptions.empty)
            subscriber.receive(completion: completion)
        } else {
            subscriber.receive(subscription: conduit)
        }
    }

    var conduitCount: Int { state.withLock { $0.subscriberCount } }
}

extension SubjectStorage {
    /// The longest conduit queue (the soak test checks the bound).
    var longestQueue: Int {
        state.withLock { state in state.liveEntries.reduce(0) { Swift.max($0, $1.machine.delivery.queue.count) } }
    }
}
