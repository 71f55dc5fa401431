/// A publisher that allows for recording a series of inputs and a completion, for later
/// playback to each subscriber.
///
/// Each subscriber receives the recorded values per its demand, then the completion (which
/// follows the last value without waiting for more demand).
///
/// ```swift
/// let record = Record<Int, Never> { recording in
///     recording.receive(1)
///     recording.receive(2)
///     recording.receive(completion: .finished)
/// }
/// let cancellable = record.sink { print($0) }   // prints 1, 2
/// ```
public struct Record<Output, Failure: Error>: Publisher {
    /// The recorded output and completion.
    ///
    /// ```swift
    /// Record<Int, Never>(output: [1], completion: .finished).recording.output   // [1]
    /// ```
    public let recording: Recording

    /// Creates a publisher to interactively record a series of outputs and a completion.
    ///
    /// Without an explicit completion the recording finishes normally.
    ///
    /// ```swift
    /// let record = Record<Int, Never> { $0.receive(1) }
    /// ```
    public init(record: (inout Recording) -> Void) {
        var recording = Recording()
        record(&recording)
        self.init(recording: recording)
    }

    /// Creates a record publisher from an existing recording.
    ///
    /// ```swift
    /// let record = Record(recording: Record<Int, Never>.Recording(output: [1, 2]))
    /// ```
    public init(recording: Recording) {
        self.recording = recording
    }

    /// Creates a record publisher to publish the provided output and completion.
    ///
    /// ```swift
    /// let record = Record<Int, Never>(output: [1, 2, 3], completion: .finished)
    /// ```
    public init(output: [Output], completion: Subscribers.Completion<Failure>) {
        self.init(recording: Recording(output: output, completion: completion))
    }

    /// Plays the recording to the subscriber, per its demand.
    ///
    /// ```swift
    /// let record = Record<Int, Never>(output: [1, 2], completion: .finished)
    /// record.subscribe(Subscribers.Sink(receiveCompletion: { _ in }, receiveValue: { print($0) }))   // prints 1, 2
    /// ```
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        if recording.output.isEmpty {
            subscriber.receive(subscription: Subscriptions.empty)
            subscriber.receive(completion: recording.completion)
        } else {
            subscriber.receive(subscription: RecordSubscription(
                downstream: subscriber, output: recording.output, completion: recording.completion))
        }
    }
}

extension Record {
    /// A recorded sequence of outputs, followed by a completion value.
    ///
    /// Recording anything after the completion is a programming error and traps.
    ///
    /// ```swift
    /// var recording = Record<Int, Never>.Recording()
    /// recording.receive(1)
    /// recording.receive(completion: .finished)
    /// ```
    public struct Recording {
        /// The kind of values recorded.
        ///
        /// ```swift
        /// let input: Record<Int, Never>.Recording.Input = 1   // Input is Output, Int
        /// ```
        public typealias Input = Output

        /// The output which will be sent to a subscriber.
        ///
        /// ```swift
        /// Record<Int, Never>.Recording(output: [1]).output   // [1]
        /// ```
        public private(set) var output: [Output]

        /// The completion which will be sent to a subscriber (`.finished` until one is
        /// recorded).
        ///
        /// ```swift
        /// Record<Int, Never>.Recording().completion   // .finished
        /// ```
        public private(set) var completion: Subscribers.Completion<Failure>

        private var isCompleted: Bool

        /// Sets up a recording in a state ready to receive output.
        ///
        /// ```swift
        /// var recording = Record<Int, Never>.Recording()
        /// ```
        public init() {
            output = []
            completion = .finished
            isCompleted = false
        }

        /// Sets up a complete recording with the specified output and completion.
        ///
        /// ```swift
        /// let recording = Record<Int, Never>.Recording(output: [1, 2], completion: .finished)
        /// ```
        public init(output: [Output], completion: Subscribers.Completion<Failure> = .finished) {
            self.output = output
            self.completion = completion
            isCompleted = true
        }

        /// Adds an output to the recording; traps after the completion.
        ///
        /// ```swift
        /// recording.receive(1)
        /// ```
        public mutating func receive(_ input: Input) {
            if isCompleted { Violation.recordingAfterCompletion() }
            output.append(input)
        }

        /// Adds a completion to the recording; traps if one was already recorded.
        ///
        /// ```swift
        /// recording.receive(completion: .finished)
        /// ```
        public mutating func receive(completion: Subscribers.Completion<Failure>) {
            if isCompleted { Violation.recordingAfterCompletion() }
            self.completion = completion
            isCompleted = true
        }
    }
}

extension Record: Sendable where Output: Sendable, Failure: Sendable {}
extension Record.Recording: Sendable where Output: Sendable, Failure: Sendable {}
