// Run-time choice between the portable field arithmetic and the mulx/adx assembly kernels.
#pragma once

namespace cuzk::ff {

// True when the CPU has both BMI2 (mulx) and ADX (adcx/adox).
bool cpu_has_bmi2_adx();

// The path the field types use: the assembly kernels when the CPU has them, unless the
// environment sets CUZK_FF_PORTABLE=1 (so tests and benchmarks can exercise both paths).
bool detect_use_adx();

// Read on every multiplication; a constant after static initialisation. Before initialisation
// it reads false, which selects the (equally correct) portable path.
inline const bool kUseAdx = detect_use_adx();

}  // namespace cuzk::ff
