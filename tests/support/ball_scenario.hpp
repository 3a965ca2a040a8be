#pragma once
// A small valid scenario, a ball above the floor, that tests break in one place to check the
// error's line and column; its lines are numbered in the comments.

#include <string>

namespace routh::test {

inline const std::string kBall =
    "name: ball\n"                                 // line 1
    "duration: 1\n"                                // line 2
    "model: {type: ball, radius: 0.1, mass: 1}\n"  // line 3
    "initial:\n"                                   // line 4
    "  q: {y: 1.1}\n"                              // line 5
    "contact:\n"                                   // line 6
    "  law: poisson\n"                             // line 7
    "  restitution: 0.9\n"                         // line 8
    "  friction: 0.5\n";                           // line 9

}  // namespace routh::test
