// The asynchronous stress, memory and schedule suites run one test at a time.
import Sluice
import Testing

/// Parent of the asynchronous stress, bounded-memory and schedule suites, serialized: each of
/// them keeps a sender thread busy or polls, and run together with each other (and the rest of
/// the package's tests, on 2 cores) they starved the cooperative pool so that no async test
/// finished. One at a time they take seconds. The families' mutant tests
/// (`Mutants/FamilyMutantTests.swift`) run here too, one at a time.
@Suite("Async stress, memory and schedules (serialized)", .serialized)
enum AsyncStressSuites {}
