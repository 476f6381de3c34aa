import TouchCore

/// Placeholder until test helpers land.
enum TouchTestingModule {}
