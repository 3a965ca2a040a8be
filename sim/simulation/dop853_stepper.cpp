#include "sim/simulation/dop853_stepper.hpp"

#include <algorithm>
#include <boost/numeric/odeint.hpp>
#include <cmath>
#include <limits>

namespace routh {

namespace {

using Table = std::array<std::array<double, 16>, 16>;

// The nodes c_i of the 16 stages (stage 13, at t + h, is the next step's first).
constexpr std::array<double, 16> kNodes = {0.0,
                                           0.526001519587677318785587544488e-01,
                                           0.789002279381515978178381316732e-01,
                                           0.118350341907227396726757197510e+00,
                                           0.281649658092772603273242802490e+00,
                                           0.333333333333333333333333333333e+00,
                                           0.25e+00,
                                           0.307692307692307692307692307692e+00,
                                           0.651282051282051282051282051282e+00,
                                           0.6e+00,
                                           0.857142857142857142857142857142e+00,
                                           1.0,
                                           1.0,
                                           0.1e+00,
                                           0.2e+00,
                                           0.777777777777777777777777777778e+00};

// a_ij, row i the stage, column j the earlier stage (0-based).
constexpr Table stage_coefficients() {
  Table a{};
  a[1][0] = 5.26001519587677318785587544488e-2;
  a[2][0] = 1.97250569845378994544595329183e-2;
  a[2][1] = 5.91751709536136983633785987549e-2;
  a[3][0] = 2.95875854768068491816892993775e-2;
  a[3][2] = 8.87627564304205475450678981324e-2;
  a[4][0] = 2.41365134159266685502369798665e-1;
  a[4][2] = -8.84549479328286085344864962717e-1;
  a[4][3] = 9.24834003261792003115737966543e-1;
  a[5][0] = 3.7037037037037037037037037037e-2;
  a[5][3] = 1.70828608729473871279604482173e-1;
  a[5][4] = 1.25467687566822425016691814123e-1;
  a[6][0] = 3.7109375e-2;
  a[6][3] = 1.70252211019544039314978060272e-1;
  a[6][4] = 6.02165389804559606850219397283e-2;
  a[6][5] = -1.7578125e-2;
  a[7][0] = 3.70920001185047927108779319836e-2;
  a[7][3] = 1.70383925712239993810214054705e-1;
  a[7][4] = 1.07262030446373284651809199168e-1;
  a[7][5] = -1.53194377486244017527936158236e-2;
  a[7][6] = 8.27378916381402288758473766002e-3;
  a[8][0] = 6.24110958716075717114429577812e-1;
  a[8][3] = -3.36089262944694129406857109825e0;
  a[8][4] = -8.68219346841726006818189891453e-1;
  a[8][5] = 2.75920996994467083049415600797e1;
  a[8][6] = 2.01540675504778934086186788979e1;
  a[8][7] = -4.34898841810699588477366255144e1;
  a[9][0] = 4.77662536438264365890433908527e-1;
  a[9][3] = -2.48811461997166764192642586468e0;
  a[9][4] = -5.90290826836842996371446475743e-1;
  a[9][5] = 2.12300514481811942347288949897e1;
  a[9][6] = 1.52792336328824235832596922938e1;
  a[9][7] = -3.32882109689848629194453265587e1;
  a[9][8] = -2.03312017085086261358222928593e-2;
  a[10][0] = -9.3714243008598732571704021658e-1;
  a[10][3] = 5.18637242884406370830023853209e0;
  a[10][4] = 1.09143734899672957818500254654e0;
  a[10][5] = -8.14978701074692612513997267357e0;
  a[10][6] = -1.85200656599969598641566180701e1;
  a[10][7] = 2.27394870993505042818970056734e1;
  a[10][8] = 2.49360555267965238987089396762e0;
  a[10][9] = -3.0467644718982195003823669022e0;
  a[11][0] = 2.27331014751653820792359768449e0;
  a[11][3] = -1.05344954667372501984066689879e1;
  a[11][4] = -2.00087205822486249909675718444e0;
  a[11][5] = -1.79589318631187989172765950534e1;
  a[11][6] = 2.79488845294199600508499808837e1;
  a[11][7] = -2.85899827713502369474065508674e0;
  a[11][8] = -8.87285693353062954433549289258e0;
  a[11][9] = 1.23605671757943030647266201528e1;
  a[11][10] = 6.43392746015763530355970484046e-1;
  // stage 12 (index 12) is f at the step's end: no row of its own
  a[13][0] = 5.61675022830479523392909219681e-2;
  a[13][6] = 2.53500210216624811088794765333e-1;
  a[13][7] = -2.46239037470802489917441475441e-1;
  a[13][8] = -1.24191423263816360469010140626e-1;
  a[13][9] = 1.5329179827876569731206322685e-1;
  a[13][10] = 8.20105229563468988491666602057e-3;
  a[13][11] = 7.56789766054569976138603589584e-3;
  a[13][12] = -8.298e-3;
  a[14][0] = 3.18346481635021405060768473261e-2;
  a[14][5] = 2.83009096723667755288322961402e-2;
  a[14][6] = 5.35419883074385676223797384372e-2;
  a[14][7] = -5.49237485713909884646569340306e-2;
  a[14][10] = -1.08347328697249322858509316994e-4;
  a[14][11] = 3.82571090835658412954920192323e-4;
  a[14][12] = -3.40465008687404560802977114492e-4;
  a[14][13] = 1.41312443674632500278074618366e-1;
  a[15][0] = -4.28896301583791923408573538692e-1;
  a[15][5] = -4.69762141536116384314449447206e0;
  a[15][6] = 7.68342119606259904184240953878e0;
  a[15][7] = 4.06898981839711007970213554331e0;
  a[15][8] = 3.56727187455281109270669543021e-1;
  a[15][12] = -1.39902416515901462129418009734e-3;
  a[15][13] = 2.9475147891527723389556272149e0;
  a[15][14] = -9.15095847217987001081870187138e0;
  return a;
}
constexpr Table kA = stage_coefficients();

// b_i of the eighth-order solution (stages 0, 5 … 11).
constexpr std::array<double, 12> kWeights = {5.42937341165687622380535766363e-2,
                                             0.0,
                                             0.0,
                                             0.0,
                                             0.0,
                                             4.45031289275240888144113950566e0,
                                             1.89151789931450038304281599044e0,
                                             -5.8012039600105847814672114227e0,
                                             3.1116436695781989440891606237e-1,
                                             -1.52160949662516078556178806805e-1,
                                             2.01365400804030348374776537501e-1,
                                             4.47106157277725905176885569043e-2};

// The fifth-order estimator: Σ e_i k_i, the difference of the eighth- and fifth-order solutions.
constexpr std::array<double, 12> kFifthOrderError = {0.1312004499419488073250102996e-01,
                                                     0.0,
                                                     0.0,
                                                     0.0,
                                                     0.0,
                                                     -0.1225156446376204440720569753e+01,
                                                     -0.4957589496572501915214079952e+00,
                                                     0.1664377182454986536961530415e+01,
                                                     -0.3503288487499736816886487290e+00,
                                                     0.3341791187130174790297318841e+00,
                                                     0.8192320648511571246570742613e-01,
                                                     -0.2235530786388629525884427845e-01};

// The third-order solution's weights, on stages 0, 8 and 11: the third-order estimator is
// Σ b_i k_i − (bhh₁ k₀ + bhh₂ k₈ + bhh₃ k₁₁).
constexpr double kThird0 = 0.244094488188976377952755905512e+00;
constexpr double kThird8 = 0.733846688281611857341361741547e+00;
constexpr double kThird11 = 0.220588235294117647058823529412e-01;

// d_ij: the dense output's coefficients 5 … 8 (rows), over the 16 stages (columns).
constexpr std::array<std::array<double, 16>, 4> kDense = {{
    {-0.84289382761090128651353491142e+01, 0.0, 0.0, 0.0, 0.0, 0.56671495351937776962531783590e+00,
     -0.30689499459498916912797304727e+01, 0.23846676565120698287728149680e+01,
     0.21170345824450282767155149946e+01, -0.87139158377797299206789907490e+00,
     0.22404374302607882758541771650e+01, 0.63157877876946881815570249290e+00,
     -0.88990336451333310820698117400e-01, 0.18148505520854727256656404962e+02,
     -0.91946323924783554000451984436e+01, -0.44360363875948939664310572000e+01},
    {0.10427508642579134603413151009e+02, 0.0, 0.0, 0.0, 0.0, 0.24228349177525818288430175319e+03,
     0.16520045171727028198505394887e+03, -0.37454675472269020279518312152e+03,
     -0.22113666853125306036270938578e+02, 0.77334326684722638389603898808e+01,
     -0.30674084731089398182061213626e+02, -0.93321305264302278729567221706e+01,
     0.15697238121770843886131091075e+02, -0.31139403219565177677282850411e+02,
     -0.93529243588444783865713862664e+01, 0.35816841486394083752465898540e+02},
    {0.19985053242002433820987653617e+02, 0.0, 0.0, 0.0, 0.0, -0.38703730874935176555105901742e+03,
     -0.18917813819516756882830838328e+03, 0.52780815920542364900561016686e+03,
     -0.11573902539959630126141871134e+02, 0.68812326946963000169666922661e+01,
     -0.10006050966910838403183860980e+01, 0.77771377980534432092869265740e+00,
     -0.27782057523535084065932004339e+01, -0.60196695231264120758267380846e+02,
     0.84320405506677161018159903784e+02, 0.11992291136182789328035130030e+02},
    {-0.25693933462703749003312586129e+02, 0.0, 0.0, 0.0, 0.0, -0.15418974869023643374053993627e+03,
     -0.23152937917604549567536039109e+03, 0.35763911791061412378285349910e+03,
     0.93405324183624310003907691704e+02, -0.37458323136451633156875139351e+02,
     0.10409964950896230045147246184e+03, 0.29840293426660503123344363579e+02,
     -0.43533456590011143754432175058e+02, 0.96324553959188282948394950600e+02,
     -0.39177261675615439165231486172e+02, -0.14972683625798562581422125276e+03},
}};

// DOP853's step-size control (Hairer's defaults).
constexpr double kSafety = 0.9;
constexpr double kLeastRatio = 0.333, kGreatestRatio = 6.0;  // of the next step to this one
constexpr int kMaxRejections = 500;                          // in a row, as Odeint's checker

using OdeState = Dop853Stepper::OdeState;
using Map = Eigen::Map<Eigen::VectorXd>;
using ConstMap = Eigen::Map<const Eigen::VectorXd>;

Map view(OdeState& x) { return {x.data(), static_cast<Eigen::Index>(x.size())}; }

// y = x + h Σ_j a_ij k_j, the state at which stage i evaluates
void stage_state(int stage, double h, const OdeState& x, const std::array<OdeState, 16>& k,
                 OdeState& y) {
  Map sum = view(y);
  sum = ConstMap(x.data(), static_cast<Eigen::Index>(x.size()));
  const auto& row = kA[static_cast<std::size_t>(stage)];
  for (std::size_t j = 0; j < static_cast<std::size_t>(stage); ++j) {
    if (row[j] != 0.0) sum += (h * row[j]) * ConstMap(k[j].data(), sum.size());
  }
}

}  // namespace

Dop853Stepper::Dop853Stepper(double absolute_tolerance, double relative_tolerance, double max_step)
    : absolute_tolerance_(absolute_tolerance),
      relative_tolerance_(relative_tolerance),
      max_step_(max_step) {}

void Dop853Stepper::initialize(const OdeState& x0, double t0, double dt0) {
  x_ = x0;
  x_previous_ = x0;
  t_ = t_previous_ = t0;
  dt_ = std::min(dt0, max_step_);
  derivative_valid_ = false;
  after_step_ = false;
  dense_ready_ = false;
  last_rejected_ = false;
  for (OdeState& k : k_) k.resize(x0.size());
  x_new_.resize(x0.size());
  stage_x_.resize(x0.size());
}

bool Dop853Stepper::try_step(const RightHandSide& rhs) {
  const double h = dt_;
  if (0.1 * std::abs(h) <= std::abs(t_) * std::numeric_limits<double>::epsilon()) {
    throw boost::numeric::odeint::step_adjustment_error(
        "dop853: the step size fell below round-off of t");
  }
  for (int stage = 1; stage < 12; ++stage) {
    stage_state(stage, h, x_, k_, stage_x_);
    rhs(stage_x_, k_[static_cast<std::size_t>(stage)],
        t_ + kNodes[static_cast<std::size_t>(stage)] * h);
  }
  const auto n = static_cast<Eigen::Index>(x_.size());
  increment_.setZero(n);
  fifth_.setZero(n);
  for (std::size_t i = 0; i < 12; ++i) {
    if (kWeights[i] != 0.0) increment_ += kWeights[i] * view(k_[i]);
    if (kFifthOrderError[i] != 0.0) fifth_ += kFifthOrderError[i] * view(k_[i]);
  }
  third_ = increment_ - kThird0 * view(k_[0]) - kThird8 * view(k_[8]) - kThird11 * view(k_[11]);
  view(x_new_) = view(x_) + h * increment_;
  double fifth_max = 0.0, third_max = 0.0;
  for (Eigen::Index i = 0; i < n; ++i) {
    const auto u = static_cast<std::size_t>(i);
    const double scale =
        absolute_tolerance_ + relative_tolerance_ * std::max(std::abs(x_[u]), std::abs(x_new_[u]));
    fifth_max = std::max(fifth_max, std::abs(fifth_[i]) / scale);
    third_max = std::max(third_max, std::abs(third_[i]) / scale);
  }
  const double denominator = fifth_max * fifth_max + 0.01 * third_max * third_max;
  const double error =
      denominator > 0.0 ? std::abs(h) * fifth_max * fifth_max / std::sqrt(denominator) : 0.0;
  const double shrink = std::pow(error, 1.0 / 8.0) / kSafety;  // h / h_new
  if (error > 1.0) {  // rejected (a non-finite error is accepted: the loop's guards see it)
    dt_ = h / std::min(1.0 / kLeastRatio, shrink);
    last_rejected_ = true;
    return false;
  }
  double next = h / std::clamp(shrink, 1.0 / kGreatestRatio, 1.0 / kLeastRatio);
  if (last_rejected_) next = std::min(next, h);
  rhs(x_new_, k_[12], t_ + h);  // the next step's first stage, last: f at the step's end
  x_previous_.swap(x_);
  x_.swap(x_new_);
  t_previous_ = t_;
  t_ = t_previous_ + h;
  h_taken_ = h;
  after_step_ = true;
  dense_ready_ = false;
  dt_ = std::min(next, max_step_);
  last_rejected_ = false;
  return true;
}

// The continuous extension (Hairer et al. §II.6): with s = (t − t₀)/h, s₁ = 1 − s,
//     x(t) = r₁ + s (r₂ + s₁ (r₃ + s (r₄ + s₁ (r₅ + s (r₆ + s₁ (r₇ + s r₈)))))),
// r₁ … r₄ from the step's ends and slopes, r₅ … r₈ = h Σ d_ij k_j over all 16 stages.
void Dop853Stepper::prepare_dense_output() const {
  const double h = h_taken_, t0 = t_previous_;
  for (int stage = 13; stage < kStages; ++stage) {
    stage_state(stage, h, x_previous_, k_, stage_x_);
    rhs_(stage_x_, k_[static_cast<std::size_t>(stage)],
         t0 + kNodes[static_cast<std::size_t>(stage)] * h);
  }
  const auto n = static_cast<Eigen::Index>(x_.size());
  const ConstMap start(x_previous_.data(), n), end(x_.data(), n);
  const auto k = [&](std::size_t j) { return ConstMap(k_[j].data(), n); };
  dense_.resize(n, 8);
  dense_.col(0) = start;
  dense_.col(1) = end - start;
  dense_.col(2) = h * k(0) - dense_.col(1);
  dense_.col(3) = dense_.col(1) - h * k(12) - dense_.col(2);
  for (std::size_t r = 0; r < 4; ++r) {
    auto column = dense_.col(static_cast<Eigen::Index>(4 + r));
    column.setZero();
    for (std::size_t j = 0; j < static_cast<std::size_t>(kStages); ++j) {
      if (kDense[r][j] != 0.0) column += (h * kDense[r][j]) * k(j);
    }
  }
  dense_ready_ = true;
}

std::pair<double, double> Dop853Stepper::do_step(const RightHandSide& rhs) {
  rhs_ = rhs;
  if (after_step_) {  // the last step's end is this one's start
    k_[0].swap(k_[12]);
    after_step_ = false;
  }
  if (!derivative_valid_) {
    rhs(x_, k_[0], t_);
    derivative_valid_ = true;
  }
  for (int tries = 0; !try_step(rhs); ++tries) {
    if (tries + 1 >= kMaxRejections) {
      throw boost::numeric::odeint::step_adjustment_error(
          "dop853: the step was rejected 500 times in a row");
    }
  }
  return {t_previous_, t_};
}

void Dop853Stepper::calc_state(double t, OdeState& x) const {
  if (!dense_ready_) prepare_dense_output();
  const double s = (t - t_previous_) / h_taken_, s1 = 1.0 - s;
  x.resize(x_.size());
  view(x) =
      dense_.col(0) +
      s * (dense_.col(1) +
           s1 * (dense_.col(2) +
                 s * (dense_.col(3) +
                      s1 * (dense_.col(4) +
                            s * (dense_.col(5) + s1 * (dense_.col(6) + s * dense_.col(7)))))));
}

}  // namespace routh
