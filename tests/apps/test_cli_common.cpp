#include <catch2/catch.hpp>

#include "app_test_helpers.hpp"
#include "bsrflow/apps/common/cli_common.hpp"
#include "bsrflow/apps/common/gpu_guard.hpp"

using namespace bsrflow;
using namespace bsrflow::bench;

TEST_CASE("block shapes parse as R or RxC", "[apps]") {
  CHECK(parse_block_shape("32") == BlockShape{32, 32});
  CHECK(parse_block_shape("16x64") == BlockShape{16, 64});
  CHECK(parse_block_shape("64X16") == BlockShape{64, 16});
  for (const char* bad : {"", "x", "16x", "x16", "0", "16x0", "-4", "4.5", "16x64x2", "a"})
    CHECK_APP_ERROR(parse_block_shape(bad), Errc::invalid_argument,
                    std::string("--block '") + bad + "' is not a block shape (expected R or RxC");
}

TEST_CASE("integer and name lists", "[apps]") {
  CHECK(parse_positive_int_list("3,16,32", "--blocks") == std::vector<int>{3, 16, 32});
  CHECK(parse_positive_int_list("7", "--blocks") == std::vector<int>{7});
  CHECK_APP_ERROR(parse_positive_int_list("3,,32", "--blocks"), Errc::invalid_argument,
                  "--blocks: '' is not a positive integer (in '3,,32')");
  CHECK_APP_ERROR(parse_positive_int_list("3,-1", "--blocks"), Errc::invalid_argument,
                  "--blocks: '-1' is not a positive integer");
  CHECK(parse_name_list("a,b", "--systems") == std::vector<std::string>{"a", "b"});
  CHECK_APP_ERROR(parse_name_list("a,", "--systems"), Errc::invalid_argument, "--systems: empty name in 'a,'");
}

TEST_CASE("a dtype option takes one of the allowed dtypes by name", "[apps]") {
  CHECK(parse_dtype_choice("f32", {DType::f64, DType::f32}) == DType::f32);
  CHECK(parse_dtype_choice("bf16", {DType::f16, DType::bf16}, "--type") == DType::bf16);
  CHECK_APP_ERROR(parse_dtype_choice("f16", {DType::f64}), Errc::invalid_argument,
                  "--dtype: unsupported dtype 'f16' (expected f64)");
  CHECK_APP_ERROR(parse_dtype_choice("F32", {DType::f64, DType::f32, DType::f16}, "--type"), Errc::invalid_argument,
                  "--type: unsupported dtype 'F32' (expected f64, f32 or f16)");
  CHECK_APP_ERROR(parse_dtype_choice("", {DType::f64, DType::f32}), Errc::invalid_argument,
                  "--dtype: unsupported dtype '' (expected f64 or f32)");
}

TEST_CASE("timing options parse and are checked", "[apps]") {
  namespace po = boost::program_options;
  TimingConfig config;
  po::options_description options;
  add_timing_options(options, config);
  CHECK(config.warmup_ms == 0);  // the shared default: warm-up runs only
  CHECK(config.rest_ms == 0);
  const test::Args args({"--iters", "7", "--warmup", "0", "--no-cold-l2", "--warmup-ms", "150", "--rest-ms", "50"});
  parse_command_line(args.argc(), args.argv(), options);
  CHECK(config.rest_ms == 50);
  CHECK(config.iters == 7);
  CHECK(config.warmup == 0);
  CHECK(config.warmup_ms == 150);
  CHECK_FALSE(config.cold_l2);
  check_timing_options(config);
  config.warmup_ms = -1;
  CHECK_APP_ERROR(check_timing_options(config), Errc::invalid_argument, "--warmup-ms must be between 0 and 60000 (got -1.00)");
  config.warmup_ms = 1e6;
  CHECK_APP_ERROR(check_timing_options(config), Errc::invalid_argument, "--warmup-ms must be between 0 and 60000");
  config.warmup_ms = 0;
  config.rest_ms = -5;
  CHECK_APP_ERROR(check_timing_options(config), Errc::invalid_argument, "--rest-ms must be between 0 and 60000 (got -5.00)");
  config.rest_ms = 0;
  config.iters = 0;
  CHECK_APP_ERROR(check_timing_options(config), Errc::invalid_argument, "--iters must be at least 1 (got 0)");
  config.iters = 1;
  config.warmup = -1;
  CHECK_APP_ERROR(check_timing_options(config), Errc::invalid_argument, "--warmup must not be negative (got -1)");
}

TEST_CASE("Boost.Program_options errors become invalid_argument", "[apps]") {
  namespace po = boost::program_options;
  TimingConfig config;
  po::options_description options;
  add_timing_options(options, config);
  const test::Args unknown({"--bogus"});
  CHECK_APP_ERROR(parse_command_line(unknown.argc(), unknown.argv(), options), Errc::invalid_argument,
                  "unrecognised option '--bogus'");
  const test::Args bad_value({"--iters", "many"});
  CHECK_APP_ERROR(parse_command_line(bad_value.argc(), bad_value.argv(), options), Errc::invalid_argument,
                  "the argument ('many') for option '--iters' is invalid");
  const test::Args missing({"--iters"});
  CHECK_APP_ERROR(parse_command_line(missing.argc(), missing.argv(), options), Errc::invalid_argument,
                  "the required argument for option '--iters' is missing");
  const test::Args positional({"stray"});
  CHECK_THROWS_AS(parse_command_line(positional.argc(), positional.argv(), options), Error);
}

TEST_CASE("the no-GPU message is one plain line", "[apps]") {
  CHECK(no_gpu_message("bsr_bench") == "bsr_bench: no CUDA GPU found; it needs an NVIDIA GPU (H100/H200)");
  CHECK(kExitNoGpu == 2);
}

TEST_CASE("warmup_done: the warm-up runs, then as long as warmup_ms asks", "[apps]") {
  TimingConfig config;
  config.warmup = 3;
  CHECK_FALSE(warmup_done(config, 2, 1000));
  CHECK(warmup_done(config, 3, 0));  // warmup_ms 0: the runs alone
  config.warmup_ms = 200;
  CHECK_FALSE(warmup_done(config, 3, 199.9));
  CHECK_FALSE(warmup_done(config, 2, 500));
  CHECK(warmup_done(config, 3, 200));
  CHECK(warmup_done(config, 400, 250));
}
