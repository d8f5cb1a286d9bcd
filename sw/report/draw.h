// `fixroute draw`: an SVG picture of an algorithm's tables, drawn by their router kind
// (RouterKind::draw: port rules of a torus, crossbar steps, generic trees, combining rounds).
#pragma once
#include <string>

namespace fixroute {

struct Problem;
struct Tables;

// The drawing, titled with the case; InputError where the kind draws nothing or the
// topology is not one it draws.
std::string draw_tables(const Problem& problem, const std::string& algorithm, const Tables& tables);

// `title` with the tables' construction in parentheses, where they name one.
std::string with_construction(const std::string& title, const Tables& tables);

}  // namespace fixroute
