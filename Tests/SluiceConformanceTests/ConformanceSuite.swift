// The cross-cutting conformance suite (issue 5): every rule of DESIGN.md's "Rules every
// publisher and subscription in the package keeps", and the Reactive Streams rules that apply
// to Combine's semantics, run over a registry of every publisher, operator and bridge path;
// plus stress, seeded random schedules, bounded-memory checks and exit tests for every trap.
//
// Layout: `Registry/` (the factories), `Rules/` (one file per rule group), `Stress/`,
// `Schedules/` (the random schedules and the demand model), `Misuse/` (exit tests), `Mutants/`
// (publishers, subjects and subscribers broken on purpose: every rule and every stress family
// runs against one it must catch, and against its unbroken control, which it must pass).
//
// `Registry/Registry.swift` and `Registry+Bridge.swift` list every publisher and bridge path,
// each in the shapes it can take (finite, failing, never-ending), declaring its element count,
// ending, delivery (synchronous, asynchronous, hot) and whether it is cold; every rule in
// `Rules/` is a `@Test(arguments:)` over the entries it applies to. Adding a publisher or
// operator is adding entries there. `Registry/SubscriberRegistry.swift` does the same for the
// package's own subscribers. `Misuse/MisuseTraps.swift` maps every trap to its exit test.
import Testing
