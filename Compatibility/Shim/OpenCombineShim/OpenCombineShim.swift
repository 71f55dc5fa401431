// Sluice and SluiceFoundation under the name of OpenCombine's umbrella module, which code that
// supports Linux through OpenCombine imports in place of Combine.
@_exported public import OpenCombine
@_exported public import SluiceFoundation
