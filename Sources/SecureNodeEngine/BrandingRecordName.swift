import struct BrandingStore.BrandingRecord

/// The store's branding record (`BrandingStore.BrandingRecord`), named
/// apart from the generated client's `SecureNodeAPI.BrandingRecord` (the
/// wire shape): the module `BrandingStore` also has a class of that name,
/// so `BrandingStore.BrandingRecord` cannot be written in this module.
public typealias StoredBrandingRecord = BrandingRecord
