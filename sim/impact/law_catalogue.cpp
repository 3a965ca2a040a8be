#include "sim/impact/law_catalogue.hpp"

#include <array>

#include "sim/impact/energetic.hpp"
#include "sim/impact/lcp.hpp"
#include "sim/impact/multipoint_energetic.hpp"
#include "sim/impact/newton.hpp"
#include "sim/impact/newton_routh.hpp"
#include "sim/impact/park.hpp"
#include "sim/impact/poisson.hpp"
#include "sim/impact/rocking.hpp"
#include "sim/impact/sliding_ode.hpp"
#include "sim/text.hpp"

namespace routh {

namespace {

constexpr std::array kLaws = {
    LawEntry{
        "newton",
        "conventional method: Newton restitution, stick or slide throughout (flags energy gain)",
        {.planar = true, .spatial = true},
        &solve_newton},
    LawEntry{"newton_routh",
             "Routh incremental, Newton restitution (paper 004; can gain energy)",
             {.planar = true},
             &solve_newton_routh},
    LawEntry{"poisson",
             "Routh incremental, Poisson restitution, static/kinetic friction (papers 000, 004)",
             {.planar = true},
             &solve_poisson},
    LawEntry{"energetic",
             "Routh incremental, Stronge's energetic restitution (paper 004)",
             {.planar = true},
             &solve_energetic},
    LawEntry{"multipoint_energetic",
             "simultaneous multi-point impact, rigid-body-consistent impulses, global energetic e "
             "(paper 002)",
             {.planar = true, .max_contacts = kMultipointEnergeticMaxContacts},
             &solve_multipoint_energetic},
    LawEntry{"lcp",
             "Poisson impact as compression and expansion LCPs, 8-edge polyhedral friction cone, "
             "Lemke (paper 001 section 2.2; Anitescu-Potra)",
             {.planar = true, .spatial = true, .max_contacts = kAnyNumberOfContacts},
             &solve_lcp},
    LawEntry{"rocking",
             "calibrated rocking: Housner's plastic sticking impact, velocities scaled so that the "
             "rocking angular velocity keeps eta = restitution (Housner 1963)",
             {.planar = true, .max_contacts = kAnyNumberOfContacts, .rocking_calibration = true},
             &solve_rocking},
    LawEntry{"rocking_over_housner",
             "as rocking, with restitution = eta / eta_Housner (shake-table calibrations)",
             {.planar = true, .max_contacts = kAnyNumberOfContacts, .rocking_calibration = true},
             &solve_rocking_over_housner},
    LawEntry{"park",
             "algebraic mode evolution, exact quadratic cone, Poisson restitution, static/kinetic "
             "friction (paper 001 §3)",
             {.spatial = true},
             &solve_park},
    LawEntry{"sliding_ode",
             "3D slip flow in normal impulse integrated with Odeint, stick stability, Poisson "
             "restitution (papers 001, 003)",
             {.spatial = true},
             &solve_sliding_ode},
    LawEntry{"sliding_ode_energetic",
             "as sliding_ode, ended by Stronge's energetic restitution (papers 001, 003; Mirtich)",
             {.spatial = true},
             &solve_sliding_ode_energetic},
};

}  // namespace

std::string to_string(const LawScope& scope) {
  const std::string_view dimensions = scope.planar && scope.spatial ? "planar or spatial"
                                      : scope.planar                ? "planar"
                                                                    : "spatial";
  if (scope.max_contacts == kAnyNumberOfContacts)
    return cat(dimensions, ", any number of contacts");
  if (scope.max_contacts == 1) return cat(dimensions, ", one contact");
  return cat(dimensions, ", up to ", scope.max_contacts, " contacts");
}

bool covers(const LawScope& scope, ContactDimension dimension, int contacts) {
  const bool takes_dimension = dimension == ContactDimension::planar ? scope.planar : scope.spatial;
  return takes_dimension && contacts >= 1 && contacts <= scope.max_contacts;
}

std::span<const LawEntry> impact_laws() { return kLaws; }

const LawEntry* find_law(std::string_view name) {
  for (const auto& law : kLaws) {
    if (law.name == name) return &law;
  }
  return nullptr;
}

const LawEntry* catalogue_entry(ImpactLaw solve) {
  for (const auto& law : kLaws) {
    if (law.solve == solve) return &law;
  }
  return nullptr;
}

std::string unknown_law_message(std::string_view name) {
  std::array<std::string_view, kLaws.size()> names{};
  for (std::size_t i = 0; i < kLaws.size(); ++i) names[i] = kLaws[i].name;
  return cat("unknown law '", name, "'; did you mean '", closest_name(name, names),
             "'? (known: ", comma_list(names), ")");
}

}  // namespace routh
