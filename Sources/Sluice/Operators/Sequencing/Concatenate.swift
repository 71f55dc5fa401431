extension Publishers {
    /// A publisher that republishes every element of one publisher, then, once it finishes,
    /// every element of another.
    ///
    /// The suffix is subscribed only when the prefix finishes, and is asked at once for the demand the
    /// downstream still has outstanding; the downstream keeps the one subscription it was given. A failure of
    /// the prefix ends the stream without subscribing the suffix. A cancel reaches whichever publisher is
    /// current. `request(_:)` passes any demand on, `.none` included, as Combine's does.
    public struct Concatenate<Prefix: Publisher, Suffix: Publisher>: Publisher
    where Prefix.Failure == Suffix.Failure, Prefix.Output == Suffix.Output {
        public typealias Output = Suffix.Output
        public typealias Failure = Suffix.Failure

        /// The publisher republished first, in full.
        public let prefix: Prefix

        /// The publisher republished after `prefix` finishes.
        public let suffix: Suffix

        /// Creates a publisher that republishes `prefix`, then `suffix`.
        public init(prefix: Prefix, suffix: Suffix) {
            self.prefix = prefix
            self.suffix = suffix
        }

        /// Subscribes `subscriber` to the prefix; each subscription subscribes the suffix anew.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let relay = UpstreamRelay(name: "Concatenate", downstream: subscriber, trapsOnZeroDemand: false)
            let suffix = suffix
            relay.subscribe(prefix) { completion in
                guard case .finished = completion else { return relay.complete(completion) }
                relay.subscribe(suffix, as: Suffix.self) { relay.complete($0) }
            }
        }
    }
}

extension Publishers.Concatenate: Equatable where Prefix: Equatable, Suffix: Equatable {}

extension Publisher {
    /// Publishes `elements` before this publisher's elements.
    ///
    /// The elements go out as demand allows; this publisher is subscribed once they are all
    /// out, and asked for the demand left over.
    public func prepend(_ elements: Output...) -> Publishers.Concatenate<Publishers.Sequence<[Output], Failure>, Self> {
        prepend(elements)
    }

    /// Publishes the elements of `elements` before this publisher's elements.
    ///
    /// The sequence is iterated as demand arrives, once per subscription; this publisher is
    /// subscribed when it ends.
    public func prepend<S: Sequence>(_ elements: S) -> Publishers.Concatenate<Publishers.Sequence<S, Failure>, Self>
    where Output == S.Element {
        prepend(Publishers.Sequence(sequence: elements))
    }

    /// Publishes every element of `publisher`, and once it finishes, this publisher's.
    ///
    /// This publisher is subscribed only when `publisher` finishes; a failure of `publisher` ends the stream.
    public func prepend<P: Publisher>(_ publisher: P) -> Publishers.Concatenate<P, Self>
    where Failure == P.Failure, Output == P.Output {
        Publishers.Concatenate(prefix: publisher, suffix: self)
    }

    /// Publishes `elements` after this publisher finishes.
    ///
    /// A failure ends the stream without them. They go out as demand allows, the demand this
    /// publisher left unused included.
    public func append(_ elements: Output...) -> Publishers.Concatenate<Self, Publishers.Sequence<[Output], Failure>> {
        append(elements)
    }

    /// Publishes the elements of `elements` after this publisher finishes.
    ///
    /// A failure ends the stream without them. The sequence is iterated as demand arrives,
    /// once per subscription that reaches it.
    public func append<S: Sequence>(_ elements: S) -> Publishers.Concatenate<Self, Publishers.Sequence<S, Failure>>
    where Output == S.Element {
        append(Publishers.Sequence(sequence: elements))
    }

    /// Publishes every element of this publisher, and once it finishes, every element of `publisher`.
    ///
    /// `publisher` is subscribed only when this one finishes; a failure ends the stream.
    public func append<P: Publisher>(_ publisher: P) -> Publishers.Concatenate<Self, P>
    where Failure == P.Failure, Output == P.Output {
        Publishers.Concatenate(prefix: self, suffix: publisher)
    }
}
