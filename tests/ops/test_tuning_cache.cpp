// CPU tests of the GEMM autotuner's host side: key derivation and its buckets, the on-disk cache
// (round trip, every kind of bad file or entry ignored with its own warning, foreign and stale
// entries never matched, 8 concurrent writer processes and 8 writer threads all landing their
// entries), the cache directory rule. No GPU needed.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "bsrflow/core/error.hpp"
#include "bsrflow/core/json.hpp"
#include "bsrflow/ops/gemm_tunables.hpp"
#include "bsrflow/ops/gemm_tuning_key.hpp"
#include "bsrflow/ops/tuning_cache.hpp"
#include "support/expect_error.hpp"
#include "support/temp_dir.hpp"

using namespace bsrflow;
namespace fs = std::filesystem;

namespace {

// Collects the cache's warnings.
struct Warnings {
  std::vector<std::string> lines;
  TuningLogger logger() {
    return [this](const std::string& line) { lines.push_back(line); };
  }
  bool any_contains(const std::string& text) const {
    for (const std::string& l : lines)
      if (l.find(text) != std::string::npos) return true;
    return false;
  }
};

TuningEnvironment h100_env() {
  return {"NVIDIA H100 80GB HBM3", 132, 90, 13000, 13000, "0.1.0"};
}

PatternStats uniform_stats() { return {128, 128, 128 * 16, 16}; }  // 12.5%, uniform rows

TuningKey key_for(int R, int C, std::int64_t n = 8192, Layout b = Layout::row_major, DType in = DType::f16) {
  return tuning_key(h100_env(), in, in, R, C, b, Layout::row_major, n, uniform_stats());
}

GemmTunedConfig tuned_64x64() { return {{256, GemmOrientation::direct, 64}, 5, true}; }

TuningEntry entry_for(const TuningKey& key, GemmTunedConfig cfg, double ms = 1.0) {
  return {key, cfg, ms, ms * 1.1, "2026-11-23T12:00:00Z"};
}

void write_text(const fs::path& p, const std::string& text) {
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f << text;
}
std::string read_text(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

// A valid one-entry cache file for the 64x64 key, as JSON text.
std::string one_entry_file(const TuningEntry& e) {
  Json doc;
  doc.set("format", 1);
  doc.set("entries", Json(Json::Array{tuning_entry_json(e)}));
  return to_json_text(doc);
}

}  // namespace

TEST_CASE("tuning key buckets: N, density and row skew at their power-of-two edges", "[ops][tuning]") {
  CHECK(n_bucket(1) == 0);
  CHECK(n_bucket(2) == 1);
  CHECK(n_bucket(3) == 2);
  CHECK(n_bucket(8) == 3);
  CHECK(n_bucket(9) == 4);
  CHECK(n_bucket(8192) == 13);
  CHECK(n_bucket(8193) == 14);
  BSRFLOW_CHECK_ERROR(n_bucket(0), Errc::invalid_argument, "n_bucket: N must be positive, got 0");

  // 8 x 8 block grid: 64 possible blocks.
  const auto density = [](std::int64_t nnzb) { return density_bucket(PatternStats{8, 8, nnzb, 8}); };
  CHECK(density(64) == 0);   // 100%
  CHECK(density(63) == -1);  // just under 100%
  CHECK(density(32) == -1);  // exactly 50%
  CHECK(density(31) == -2);
  CHECK(density(8) == -3);   // exactly 12.5%
  CHECK(density(7) == -4);
  CHECK(density(1) == -6);
  BSRFLOW_CHECK_ERROR(density(0), Errc::invalid_argument, "density_bucket: 0 stored blocks of 64 possible");
  BSRFLOW_CHECK_ERROR(density(65), Errc::invalid_argument, "density_bucket: 65 stored blocks of 64 possible");

  // 4 block rows, 8 blocks: mean row length 2.
  const auto skew = [](int longest) { return skew_bucket(PatternStats{4, 8, 8, longest}); };
  CHECK(skew(2) == 0);  // uniform
  CHECK(skew(3) == 0);
  CHECK(skew(4) == 1);  // exactly twice the mean
  CHECK(skew(7) == 1);
  CHECK(skew(8) == 2);  // all blocks in one row
  BSRFLOW_CHECK_ERROR(skew_bucket(PatternStats{4, 8, 0, 0}), Errc::invalid_argument,
                      "skew_bucket: the pattern has no stored blocks");

  const PatternStats s = pattern_stats({0, 2, 2, 7, 8}, 10);
  CHECK(s.block_rows == 4);
  CHECK(s.block_cols == 10);
  CHECK(s.nnzb == 8);
  CHECK(s.longest_row == 5);
}

TEST_CASE("tuning key: same inputs give the same key, every field changes it", "[ops][tuning]") {
  const TuningKey base = key_for(64, 64);
  CHECK(key_for(64, 64) == base);
  CHECK(key_for(64, 64).text() == base.text());
  CHECK(base.text() ==
        "NVIDIA H100 80GB HBM3 sm90 x132 cudart13000 driver13000 bsrflow0.1.0 | f16->f16 64x64 B:row C:row "
        "N<=2^13 density>=2^-3 skew>=2^0");
  // N in the same bucket: same key; one past the edge: another.
  CHECK(key_for(64, 64, 4097) == base);
  CHECK(!(key_for(64, 64, 8193) == base));

  std::vector<TuningKey> variants;
  auto with_env = [&](auto change) {
    TuningEnvironment e = h100_env();
    change(e);
    variants.push_back(tuning_key(e, DType::f16, DType::f16, 64, 64, Layout::row_major, Layout::row_major, 8192,
                                  uniform_stats()));
  };
  with_env([](TuningEnvironment& e) { e.gpu = "NVIDIA H200"; });
  with_env([](TuningEnvironment& e) { e.sm_count = 114; });
  with_env([](TuningEnvironment& e) { e.compute_capability = 100; });
  with_env([](TuningEnvironment& e) { e.cuda_runtime = 13010; });
  with_env([](TuningEnvironment& e) { e.cuda_driver = 12080; });
  with_env([](TuningEnvironment& e) { e.library = "0.2.0"; });
  const auto key = [](DType in, DType out, int R, int C, Layout b, Layout c, std::int64_t n, PatternStats s) {
    return tuning_key(h100_env(), in, out, R, C, b, c, n, s);
  };
  const DType f16 = DType::f16;
  const Layout row = Layout::row_major, col = Layout::col_major;
  variants.push_back(key(DType::bf16, f16, 64, 64, row, row, 8192, uniform_stats()));
  variants.push_back(key(f16, DType::f32, 64, 64, row, row, 8192, uniform_stats()));
  variants.push_back(key(f16, f16, 32, 64, row, row, 8192, uniform_stats()));
  variants.push_back(key(f16, f16, 64, 32, row, row, 8192, uniform_stats()));
  variants.push_back(key(f16, f16, 64, 64, col, row, 8192, uniform_stats()));
  variants.push_back(key(f16, f16, 64, 64, row, col, 8192, uniform_stats()));
  variants.push_back(key(f16, f16, 64, 64, row, row, 64, uniform_stats()));
  variants.push_back(key(f16, f16, 64, 64, row, row, 8192, PatternStats{128, 128, 128 * 64, 64}));  // 50%
  variants.push_back(key(f16, f16, 64, 64, row, row, 8192, PatternStats{128, 128, 128 * 16, 128}));  // skewed
  for (std::size_t i = 0; i < variants.size(); ++i) {
    CAPTURE(i, variants[i].text());
    CHECK(!(variants[i] == base));
    CHECK(variants[i].text() != base.text());
    for (std::size_t j = i + 1; j < variants.size(); ++j) CHECK(!(variants[i] == variants[j]));
  }
}

TEST_CASE("tuning cache: round trip, replacement, file format", "[ops][tuning]") {
  test::TempDir dir("bsrflow_tuning");
  Warnings w;
  TuningCache cache(dir.path / "sub" / "dir", w.logger());  // created on the first store
  CHECK(!cache.lookup(key_for(64, 64)).has_value());
  CHECK(cache.entries().empty());

  const TuningEntry a = entry_for(key_for(64, 64), tuned_64x64(), 1.25);
  const TuningEntry b = entry_for(key_for(16, 16), {{512, GemmOrientation::swap, 16}, 4, false}, 0.5);
  cache.store(a);
  cache.store(b);
  REQUIRE(cache.lookup(a.key).has_value());
  CHECK(*cache.lookup(a.key) == a);
  CHECK(*cache.lookup(b.key) == b);
  CHECK(cache.entries() == std::vector<TuningEntry>{a, b});

  // Same key again: replaced in place, not duplicated.
  TuningEntry a2 = a;
  a2.config.stages = 3;
  a2.tuned_ms = 1.0;
  cache.store(a2);
  CHECK(cache.entries() == std::vector<TuningEntry>{a2, b});

  // A second cache object on the same directory (another process, in effect) sees the same.
  TuningCache other(dir.path / "sub" / "dir", w.logger());
  CHECK(other.entries() == std::vector<TuningEntry>{a2, b});

  const Json doc = parse_json(read_text(cache.file()));
  CHECK(doc.find("format")->as_integer() == 1);
  REQUIRE(doc.find("entries")->as_array().size() == 2);
  const Json& first = doc.find("entries")->as_array()[0];
  CHECK(first.find("config")->as_string() == "swath256_direct_kc64_s3");
  CHECK(first.find("gpu")->as_string() == "NVIDIA H100 80GB HBM3");
  CHECK(first.find("n_log2")->as_integer() == 13);
  CHECK(first.find("density_log2")->as_integer() == -3);
  CHECK(w.lines.empty());
  // No temporaries left behind.
  int files = 0;
  for (const auto& f : fs::directory_iterator(cache.dir())) {
    ++files;
    CHECK(f.path().filename().string().find(".tmp.") == std::string::npos);
  }
  CHECK(files == 2);  // the cache and its lock file

  CHECK(cache.clear() == 2);
  CHECK(!fs::exists(cache.file()));
  CHECK(!cache.lookup(a.key).has_value());
  CHECK(cache.clear() == 0);
}

TEST_CASE("tuning cache: row groups and items per stage round-trip; older entries read as one", "[ops][tuning]") {
  test::TempDir dir("bsrflow_tuning");
  Warnings w;
  TuningCache cache(dir.path, w.logger());
  const TuningEntry two = entry_for(key_for(16, 16), {{512, GemmOrientation::swap, 16, 4, 2}, 6, true});
  const TuningEntry wrong = entry_for(key_for(32, 32), {{256, GemmOrientation::swap, 32, 4, 2}, 8, true});
  Json old = tuning_entry_json(entry_for(key_for(64, 64), tuned_64x64()));
  Json::Object members;  // as written before row groups and two-item stages existed
  for (const auto& [k, v] : old.as_object())
    if (k != "row_group" && k != "items_per_stage") members.emplace_back(k, v);
  CHECK(tuning_entry_json(two).find("items_per_stage")->as_integer() == 2);
  CHECK(tuning_entry_json(two).find("config")->as_string() == "swath512_swap_kc16_g4x2_s6");
  Json doc;
  doc.set("format", 1);
  doc.set("entries", Json(Json::Array{tuning_entry_json(two), tuning_entry_json(wrong), Json(members)}));
  write_text(cache.file(), to_json_text(doc));
  REQUIRE(cache.lookup(two.key).has_value());
  CHECK(*cache.lookup(two.key) == two);
  REQUIRE(cache.lookup(key_for(64, 64)).has_value());
  CHECK(cache.lookup(key_for(64, 64))->config.variant.row_group == 1);
  CHECK(cache.lookup(key_for(64, 64))->config.variant.items_per_stage == 1);
  CHECK(!cache.lookup(wrong.key).has_value());  // two items per stage exist at 16 x 16 only
  CAPTURE(w.lines);
  REQUIRE(w.lines.size() == 1);
  CHECK(w.any_contains("configuration swath256_swap_kc32_g4x2_s8 is not an instantiated kernel for f16 32x32 blocks"));
}

TEST_CASE("tuning cache: bad files and entries are ignored with a specific warning, once", "[ops][tuning]") {
  test::TempDir dir("bsrflow_tuning");
  Warnings w;
  TuningCache cache(dir.path, w.logger());
  const TuningEntry good = entry_for(key_for(64, 64), tuned_64x64());
  const std::string valid = one_entry_file(good);

  SECTION("malformed JSON") {
    write_text(cache.file(), "{\"format\": 1, \"entries\": [oops]}");
    CHECK(!cache.lookup(good.key).has_value());
    REQUIRE(w.lines.size() == 1);
    CHECK(w.lines[0] == "bsrflow: tuning cache " + cache.file().string() +
                            ": not valid JSON (line 1, column 27: expected a value; truncated or corrupted?); "
                            "ignoring the whole file");
  }
  SECTION("truncated file") {
    write_text(cache.file(), valid.substr(0, valid.size() / 2));
    CHECK(!cache.lookup(good.key).has_value());
    REQUIRE(w.lines.size() == 1);
    CHECK(w.any_contains("not valid JSON (line 4, column"));
    CHECK(w.any_contains("truncated or corrupted?"));
  }
  SECTION("empty file") {
    write_text(cache.file(), "");
    CHECK(!cache.lookup(good.key).has_value());
    CHECK(w.any_contains("not valid JSON (line 1, column 1: empty text: expected a JSON value"));
  }
  SECTION("unknown format") {
    write_text(cache.file(), "{\"format\": 2, \"entries\": []}");
    CHECK(!cache.lookup(good.key).has_value());
    CHECK(w.lines == std::vector<std::string>{"bsrflow: tuning cache " + cache.file().string() +
                                              ": format 2 is not known to this bsrflow (it reads format 1); "
                                              "ignoring the whole file"});
  }
  SECTION("not a cache at all") {
    write_text(cache.file(), "[1, 2, 3]");
    CHECK(!cache.lookup(good.key).has_value());
    CHECK(w.any_contains("not a bsrflow tuning cache (expected an object with an integer \"format\")"));
  }
  SECTION("entries not an array") {
    write_text(cache.file(), "{\"format\": 1, \"entries\": {}}");
    CHECK(!cache.lookup(good.key).has_value());
    CHECK(w.any_contains("\"entries\" is missing or not an array"));
  }
  SECTION("an entry whose configuration is not valid for its key is never trusted") {
    Json bad = tuning_entry_json(good);
    bad.set("swath", 384);
    Json wrong_stages = tuning_entry_json(entry_for(key_for(32, 32), {{512, GemmOrientation::swap, 32}, 5, true}));
    wrong_stages.set("stages", 1);
    Json doc;
    doc.set("format", 1);
    doc.set("entries", Json(Json::Array{bad, wrong_stages, tuning_entry_json(entry_for(key_for(16, 16),
                                                                                      {{512, GemmOrientation::swap,
                                                                                        16},
                                                                                       8, true}))}));
    write_text(cache.file(), to_json_text(doc));
    CHECK(!cache.lookup(good.key).has_value());
    CHECK(!cache.lookup(key_for(32, 32)).has_value());
    CHECK(cache.lookup(key_for(16, 16)).has_value());  // the good entry beside them still counts
    CAPTURE(w.lines);
    REQUIRE(w.lines.size() == 2);
    CHECK(w.any_contains("entry 0 ignored: line 4, column 5: configuration swath384_direct_kc64_s5 is not an "
                         "instantiated kernel for f16 64x64 blocks with row-major B"));
    CHECK(w.any_contains("entry 1 ignored: line 5, column 5: configuration swath512_swap_kc32_s1 has 1 stages, "
                         "outside [2, 8]"));
  }
  SECTION("an entry with a missing or mistyped field") {
    Json missing = tuning_entry_json(good);
    Json::Object members;
    for (const auto& [k, v] : missing.as_object())
      if (k != "stages") members.emplace_back(k, v);
    Json typed = tuning_entry_json(good);
    typed.set("R", "64");
    Json doc;
    doc.set("format", 1);
    doc.set("entries", Json(Json::Array{Json(members), typed}));
    write_text(cache.file(), to_json_text(doc));
    CHECK(!cache.lookup(good.key).has_value());
    CAPTURE(w.lines);
    CHECK(w.any_contains("entry 0 ignored: line 4, column 5: missing field \"stages\""));
    CHECK(w.any_contains("entry 1 ignored: line 5, column 178: expected an integer, found a string"));
  }
  SECTION("foreign and stale entries are kept but never matched") {
    TuningEntry foreign = good;
    foreign.key.environment.gpu = "NVIDIA H200";
    foreign.key.environment.sm_count = 132;
    cache.store(foreign);
    CHECK(!cache.lookup(good.key).has_value());
    REQUIRE(w.lines.size() == 1);
    CHECK(w.lines[0].find("foreign entry for f16->f16 64x64 B:row C:row N<=2^13 density>=2^-3 skew>=2^0 not used: "
                          "it was tuned on NVIDIA H200 sm90 x132") != std::string::npos);
    CHECK(w.any_contains("(tune again for this GPU)"));

    test::TempDir dir2("bsrflow_tuning");
    Warnings w2;
    TuningCache cache2(dir2.path, w2.logger());
    TuningEntry stale = good;
    stale.key.environment.cuda_driver = 12080;
    cache2.store(stale);
    CHECK(!cache2.lookup(good.key).has_value());
    CHECK(w2.any_contains("stale entry for f16->f16 64x64"));
    CHECK(w2.any_contains("driver12080 bsrflow0.1.0, this is NVIDIA H100 80GB HBM3 sm90 x132 cudart13000 driver13000"));
    CHECK(w2.any_contains("(tune again for this software)"));
    // Storing for this environment keeps the other one's entry.
    cache2.store(good);
    CHECK(cache2.entries().size() == 2);
    CHECK(*cache2.lookup(good.key) == good);
  }
  SECTION("each distinct warning is given once") {
    write_text(cache.file(), "not json");
    CHECK(!cache.lookup(good.key).has_value());
    CHECK(!cache.lookup(good.key).has_value());
    CHECK(cache.entries().empty());
    CHECK(w.lines.size() == 1);
    // plan_gemm's own warnings about this cache go the same way.
    cache.warn("cached configuration X cannot run here");
    cache.warn("cached configuration X cannot run here");
    REQUIRE(w.lines.size() == 2);
    CHECK(w.lines[1] == "bsrflow: tuning cache " + cache.file().string() + ": cached configuration X cannot run here");
  }
  SECTION("a store over a corrupted file replaces it with a valid one") {
    write_text(cache.file(), valid.substr(0, 40));
    cache.store(good);
    CHECK(w.lines.size() == 1);  // the store read the bad file once
    CHECK(cache.entries() == std::vector<TuningEntry>{good});
    CHECK_NOTHROW(parse_json(read_text(cache.file())));
  }
}

TEST_CASE("tuning cache: store refuses a configuration that is not tunable for its key", "[ops][tuning]") {
  test::TempDir dir("bsrflow_tuning");
  TuningCache cache(dir.path);
  BSRFLOW_CHECK_ERROR(cache.store(entry_for(key_for(64, 64), {{512, GemmOrientation::swap, 64}, 4, true})),
                      Errc::invalid_argument,
                      "TuningCache::store: configuration swath512_swap_kc64_s4 is not an instantiated kernel for f16 "
                      "64x64 blocks with row-major B");
  CHECK(!fs::exists(cache.file()));
}

TEST_CASE("tuning cache: 8 concurrent writer processes all land their entries", "[ops][tuning]") {
  test::TempDir dir("bsrflow_tuning");
  constexpr int kProcesses = 8;
  constexpr int kPerProcess = 4;
  // Distinct keys: process p, entry e -> N bucket 8 + e, block shape by p.
  const auto key_of = [](int p, int e) {
    const int dims[4] = {16, 32, 64, 128};
    TuningKey k = key_for(dims[p % 4], dims[p % 4], std::int64_t{1} << (8 + e), Layout::row_major,
                          p < 4 ? DType::f16 : DType::bf16);
    return k;
  };
  const auto config_of = [](int p) {
    const int dims[4] = {16, 32, 64, 128};
    const int R = dims[p % 4];
    const Sm90KernelVariant v = R <= 32 ? Sm90KernelVariant{512, GemmOrientation::swap, std::min(R, 64)}
                                        : Sm90KernelVariant{256, GemmOrientation::direct, 64};
    return GemmTunedConfig{v, 4, true};
  };
  // A start gate: every child blocks reading the pipe until the parent closes its write end
  // after forking them all, so the 8 writers really run at the same time.
  int gate[2];
  REQUIRE(::pipe(gate) == 0);
  std::vector<pid_t> children;
  for (int p = 0; p < kProcesses; ++p) {
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {  // child: no Catch2 macros, exit status only
      ::close(gate[1]);
      char byte;
      while (::read(gate[0], &byte, 1) < 0) {
      }
      int status = 0;
      try {
        TuningCache cache(dir.path, [](const std::string&) {});
        for (int e = 0; e < kPerProcess; ++e) cache.store(entry_for(key_of(p, e), config_of(p), 1.0 + p + 0.1 * e));
      } catch (...) {
        status = 1;
      }
      ::_exit(status);
    }
    children.push_back(pid);
  }
  ::close(gate[0]);
  ::close(gate[1]);  // open the gate
  for (const pid_t pid : children) {
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
  }
  Warnings w;
  TuningCache cache(dir.path, w.logger());
  CHECK(cache.entries().size() == static_cast<std::size_t>(kProcesses * kPerProcess));
  for (int p = 0; p < kProcesses; ++p)
    for (int e = 0; e < kPerProcess; ++e) {
      CAPTURE(p, e);
      const auto hit = cache.lookup(key_of(p, e));
      REQUIRE(hit.has_value());
      CHECK(hit->tuned_ms == 1.0 + p + 0.1 * e);
    }
  CHECK(w.lines.empty());
  CHECK_NOTHROW(parse_json(read_text(cache.file())));
}

TEST_CASE("tuning cache: 8 writer threads on one cache object", "[ops][tuning]") {
  test::TempDir dir("bsrflow_tuning");
  TuningCache cache(dir.path);
  std::vector<std::thread> threads;
  std::vector<int> failures(8, 0);
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      try {
        for (int e = 0; e < 4; ++e) {
          cache.store(entry_for(key_for(64, 64, std::int64_t{1} << (t * 4 + e)), tuned_64x64(), 1.0 + t));
          (void)cache.lookup(key_for(64, 64));  // readers interleave with the writers
        }
      } catch (...) {
        failures[t] = 1;
      }
    });
  for (std::thread& th : threads) th.join();
  CHECK(failures == std::vector<int>(8, 0));
  CHECK(cache.entries().size() == 32);
}

TEST_CASE("tuning cache directory: BSRFLOW_CACHE_DIR, then XDG_CACHE_HOME, then HOME", "[ops][tuning]") {
  struct Saved {
    std::string name;
    std::optional<std::string> value;
  };
  std::vector<Saved> saved;
  for (const char* n : {"BSRFLOW_CACHE_DIR", "XDG_CACHE_HOME", "HOME"}) {
    const char* v = std::getenv(n);
    saved.push_back({n, v ? std::optional<std::string>(v) : std::nullopt});
  }
  ::setenv("BSRFLOW_CACHE_DIR", "/tmp/a", 1);
  ::setenv("XDG_CACHE_HOME", "/tmp/x", 1);
  ::setenv("HOME", "/home/u", 1);
  CHECK(default_tuning_cache_dir() == fs::path("/tmp/a"));
  ::setenv("BSRFLOW_CACHE_DIR", "", 1);  // empty counts as unset
  CHECK(default_tuning_cache_dir() == fs::path("/tmp/x/bsrflow"));
  ::unsetenv("XDG_CACHE_HOME");
  CHECK(default_tuning_cache_dir() == fs::path("/home/u/.cache/bsrflow"));
  ::unsetenv("HOME");
  ::unsetenv("BSRFLOW_CACHE_DIR");
  BSRFLOW_CHECK_ERROR(default_tuning_cache_dir(), Errc::io,
                      "no directory for the tuning cache: set BSRFLOW_CACHE_DIR, XDG_CACHE_HOME or HOME");
  for (const Saved& s : saved) {
    if (s.value) ::setenv(s.name.c_str(), s.value->c_str(), 1);
    else ::unsetenv(s.name.c_str());
  }
}
