#include "bsrflow/apps/bsr_bench/sm90_variants.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <iterator>
#include <tuple>

#include "bsrflow/apps/common/cli_common.hpp"
#include "bsrflow/core/error.hpp"
#include "bsrflow/ops/gemm_tunables.hpp"
#include "bsrflow/ops/sm90_choose.hpp"
#include "bsrflow/ops/tuning_sm90.hpp"

namespace bsrflow::bench {

namespace {

constexpr std::string_view kOption = "--sm90-configs";

// The number after `prefix` when `text` is exactly prefix + digits, else -1.
int number_after(std::string_view text, std::string_view prefix) {
  if (text.substr(0, prefix.size()) != prefix || text.size() == prefix.size()) return -1;
  int v = 0;
  const char* end = text.data() + text.size();
  const auto res = std::from_chars(text.data() + prefix.size(), end, v);
  return res.ec == std::errc() && res.ptr == end ? v : -1;
}

int default_k_chunk(const BenchCase& c) { return std::min(c.C, 64); }

// `v` with its k-chunk made explicit for `c`, so that "kc64" and the default compare equal.
Sm90Variant resolved(Sm90Variant v, const BenchCase& c) {
  if (v.k_chunk == 0) v.k_chunk = default_k_chunk(c);
  return v;
}

// Every instantiated variant for `c`, k-chunks explicit (the ops enumeration of tunable kernels).
std::vector<Sm90Variant> instantiated(const BenchCase& c) {
  std::vector<Sm90Variant> out;
  for (const Sm90KernelVariant& k : tunable_variants(c.dtype, c.R, c.C, c.b_layout))
    out.push_back({k.swath, k.orientation, k.k_chunk, k.row_group, k.items_per_stage});
  return out;
}

}  // namespace

std::string variant_name(const Sm90Variant& v) {
  std::string s = "swath" + std::to_string(v.swath) + (v.orientation == GemmOrientation::swap ? "_swap" : "_direct");
  if (v.k_chunk > 0) s += "_kc" + std::to_string(v.k_chunk);
  s += row_group_suffix(v.row_group, v.items_per_stage);
  return s;
}

Sm90Variant parse_variant(std::string_view name) {
  std::vector<std::string> words;
  for (std::size_t start = 0; start <= name.size();) {
    const std::size_t end = std::min(name.find('_', start), name.size());
    words.emplace_back(name.substr(start, end - start));
    start = end + 1;
  }
  const auto fail = [&](const std::string& why) {
    BSRFLOW_FAIL(Errc::invalid_argument, std::string(kOption) + ": '" + std::string(name) + "' " + why);
  };
  const std::string form =
      "is not a configuration name (expected all, or names like swath256_direct, swath512_swap, "
      "swath256_direct_kc32, swath512_swap_g4, swath512_swap_g4x2)";
  if (words.size() < 2 || words.size() > 4) fail(form);
  Sm90Variant v;
  v.swath = number_after(words[0], "swath");
  if (v.swath < 0) fail(form);
  if (!sm90::supported_swath(v.swath))
    fail("has swath " + std::to_string(v.swath) + "; the kernel's swaths are 128, 256, 512 and 1024");
  if (words[1] == "swap") v.orientation = GemmOrientation::swap;
  else if (words[1] != "direct") fail("has orientation '" + words[1] + "'; expected direct or swap");
  // Then an optional k-chunk, then an optional row group.
  std::size_t next = 2;
  if (next < words.size() && words[next].substr(0, 2) == "kc") {
    v.k_chunk = number_after(words[next++], "kc");
    if (v.k_chunk < 0) fail(form);
    if (v.k_chunk != 16 && v.k_chunk != 32 && v.k_chunk != 64)
      fail("has k-chunk " + std::to_string(v.k_chunk) + "; the kernel's k-chunks are 16, 32 and 64");
  }
  if (next < words.size()) {
    // "g4" or "g4x2": the row group, then the items per stage.
    std::string_view group = words[next++];
    if (const std::size_t x = group.find('x'); x != std::string_view::npos) {
      v.items_per_stage = number_after(group.substr(x), "x");
      if (v.items_per_stage < 0) fail(form);
      if (v.items_per_stage < 1 || v.items_per_stage > sm90::kMaxItemsPerStage)
        fail("has " + std::to_string(v.items_per_stage) + " items per stage; the row-group kernels take 1 or " +
             std::to_string(sm90::kMaxItemsPerStage));
      group = group.substr(0, x);
    }
    v.row_group = number_after(group, "g");
    if (v.row_group < 0) fail(form);
    if (v.row_group != sm90::kRowGroupRows)
      fail("has row group " + std::to_string(v.row_group) + "; the kernel's row groups hold " +
           std::to_string(sm90::kRowGroupRows) + " block rows");
  }
  if (next != words.size()) fail(form);
  return v;
}

Sm90Request parse_sm90_request(std::string_view text) {
  Sm90Request request;
  for (const std::string& name : parse_name_list(text, kOption)) {
    if (name == "all") {
      request.all = true;
      continue;
    }
    const Sm90Variant v = parse_variant(name);
    if (std::find(request.variants.begin(), request.variants.end(), v) == request.variants.end())
      request.variants.push_back(v);
  }
  BSRFLOW_REQUIRE(!request.all || request.variants.empty(), Errc::invalid_argument,
                  std::string(kOption) + ": 'all' cannot be combined with named configurations");
  return request;
}

std::vector<Sm90Variant> valid_variants(const BenchCase& c) {
  std::vector<Sm90Variant> out = instantiated(c);
  std::sort(out.begin(), out.end(), [](const Sm90Variant& a, const Sm90Variant& b) {
    return std::tuple(a.swath, a.orientation, a.k_chunk, a.row_group, a.items_per_stage) <
           std::tuple(b.swath, b.orientation, b.k_chunk, b.row_group, b.items_per_stage);
  });
  for (Sm90Variant& v : out)
    if (v.k_chunk == default_k_chunk(c)) v.k_chunk = 0;
  return out;
}

std::vector<Sm90Variant> requested_variants(const Sm90Request& request, const BenchCase& c) {
  std::vector<Sm90Variant> valid = valid_variants(c);
  std::vector<Sm90Variant> out;
  if (request.all) {
    std::copy_if(valid.begin(), valid.end(), std::back_inserter(out), [](const Sm90Variant& v) { return v.k_chunk == 0; });
    return out;
  }
  for (const Sm90Variant& want : request.variants)
    for (const Sm90Variant& v : valid)
      if (resolved(v, c) == resolved(want, c)) out.push_back(v);
  return out;
}

void check_sm90_request(const Sm90Request& request, const std::vector<BenchCase>& cases) {
  if (request.empty()) return;
  const auto valid_list = [](const BenchCase& c) {
    std::string names;
    for (const Sm90Variant& v : valid_variants(c)) names += (names.empty() ? "" : ", ") + variant_name(v);
    return names.empty() ? std::string("none") : names;
  };
  const std::string where =
      cases.size() == 1 ? "the case " + cases[0].label() + " has: " + valid_list(cases[0])
                        : std::string("bsr_bench --list-systems lists them; a case's choice depends on its dtype, block "
                                      "shape and B layout");
  const auto selects_any = [&](const Sm90Request& r) {
    return std::any_of(cases.begin(), cases.end(), [&](const BenchCase& c) { return !requested_variants(r, c).empty(); });
  };
  if (request.all) {
    BSRFLOW_REQUIRE(selects_any(request), Errc::invalid_argument,
                    std::string(kOption) + " all: no Hopper configuration is instantiated for any case of this run (" +
                        where + ")");
    return;
  }
  for (const Sm90Variant& want : request.variants)
    BSRFLOW_REQUIRE(selects_any(Sm90Request{false, {want}}), Errc::invalid_argument,
                    std::string(kOption) + ": " + variant_name(want) +
                        " is not instantiated for any case of this run (" + where + ")");
}

std::vector<std::string> all_variant_names() {
  std::vector<std::string> names;
  for (const DType in : {DType::f16, DType::bf16})
    for (const Layout b : {Layout::row_major, Layout::col_major})
      for (const int R : {16, 32, 64, 128})
        for (const int C : {128, R})  // C = 128 admits every k-chunk; C = R the row-group kernels
          for (const Sm90KernelVariant& k : tunable_variants(in, R, C, b)) {
            // A row-group kernel's chunk is always its block's width, the default: left unnamed.
            const int kc = k.row_group > 1 ? 0 : k.k_chunk;
            const std::string name = variant_name({k.swath, k.orientation, kc, k.row_group, k.items_per_stage});
            if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
          }
  std::sort(names.begin(), names.end());
  return names;
}

GemmOptions sm90_options(const Sm90Variant& v) {
  GemmOptions o;
  o.kernel = GemmOptions::Choice::sm90;  // Error(unsupported) instead of a silent fallback
  o.swath = v.swath;
  if (v.swath > 0) {  // a named variant pins its row group too (the tuned plan picks its own)
    o.orientation = v.orientation;
    o.row_group = v.row_group;
    o.items_per_stage = v.items_per_stage;
  }
  o.k_chunk = v.k_chunk;
  return o;
}

GemmOptions sm90_variant_options(const Sm90Variant& v, const BenchCase& c) { return sm90_options(resolved(v, c)); }

GemmOptions copy_probe_options(const Sm90Config& planned) {
  GemmOptions o = sm90_options(
      {planned.swath, planned.orientation, planned.k_chunk(), planned.row_group, planned.items_per_stage});
  o.stages = planned.stages;
  o.copy_only = true;
  return o;
}

std::string sm90_plan_name(const BenchCase& c, const GemmOptions& options, const DeviceInfo& device) {
  // The stored-block count the case's pattern has (the tuned row group reads the density).
  const std::int64_t nnzb = std::llround(c.density * ceil_div(c.m, c.R) * static_cast<double>(ceil_div(c.k, c.C)));
  const GemmBsrOperand A{c.m, c.k, c.R, c.C, nnzb, nullptr, nullptr, nullptr};
  const DenseDesc B{c.k, c.n, c.ldb(), c.b_layout, c.dtype};
  const DenseDesc C{c.m, c.n, c.ldc(), c.c_layout, c.dtype};
  // Variants name their swath, so the rows' shape (which only the tuned swath reads) does not matter.
  const sm90::Choice choice = sm90::choose(A, c.dtype, B, C, options, device, false);
  BSRFLOW_REQUIRE(choice.use_sm90, Errc::unsupported, choice.reason);
  return choice.config.name();
}

}  // namespace bsrflow::bench
