//! Example systems under test (coffee machine, queue) with correct and faulty modes
