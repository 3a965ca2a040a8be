// The drawing of one trajectory with three.js: every body at the pose of one frame.
//
// Planar models (x right, y up) are drawn in an orthographic camera that holds every body at
// every frame; bodies in space (z up) in a perspective camera the reader turns with the mouse
// (OrbitControls). Poses come from the page's data, computed by routh.kinematics from /q: a
// planar body at (x, y) turned by phi, a spatial one at p turned by its unit quaternion.
//
// /q is in the ground's frame. Under an excitation the ground, and with it that frame, moves by
// u_g(t), a_g integrated twice from rest (the page's data): with groundMoves the whole world
// (obstacles and bodies) is drawn shifted by u_g, as a fixed observer sees it.
import * as THREE from "three";
import {OrbitControls} from "three/examples/jsm/controls/OrbitControls.js";

export const IMPACT_COLOUR = "#d62728";
const GROUND_COLOUR = "#d4d4d4";
const GROUND_LINE_COLOUR = "#555555";
const OUTLINE_COLOUR = "#222222";
const LINE_PIXELS = 4;  // the drawn width of a rod or a link without a shape [px]
const MARGIN = 0.15;    // the share of the scene left free around the bodies

// Distances [m] of a planar body's drawn points from its centre of mass: how far it reaches.
function planarReach(body) {
  const shape = body.shape;
  if (shape && shape.type === "disk") return Math.hypot(...shape.centre) + shape.radius;
  const points = shape ? shape.vertices : body.points;
  return Math.max(1e-6, ...points.map((p) => Math.hypot(p[0], p[1])));
}

function spatialReach(shape) {
  if (shape.type === "sphere") return Math.hypot(...(shape.centre || [0, 0, 0])) + shape.radius;
  if (shape.type === "box") return Math.hypot(...shape.size) / 2;
  return Math.hypot(shape.radius, shape.height / 2);
}

// A rectangle of `width` [m] from a to b (body frame): a rod, or a link drawn as lines.
function barGeometry(a, b, width) {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const length = Math.hypot(dx, dy) || 1;
  const nx = (-dy / length) * (width / 2);
  const ny = (dx / length) * (width / 2);
  const shape = new THREE.Shape([
    new THREE.Vector2(a[0] + nx, a[1] + ny),
    new THREE.Vector2(b[0] + nx, b[1] + ny),
    new THREE.Vector2(b[0] - nx, b[1] - ny),
    new THREE.Vector2(a[0] - nx, a[1] - ny),
  ]);
  return new THREE.ShapeGeometry(shape);
}

function disk(radius, colour, z) {
  const mesh = new THREE.Mesh(
      new THREE.CircleGeometry(radius, 24),
      new THREE.MeshBasicMaterial({color: colour}),
  );
  mesh.position.z = z;
  return mesh;
}

export class Scene {
  constructor(container, data) {
    this.data = data;
    this.planar = data.dimension !== 3;
    this.container = container;
    this.renderer = new THREE.WebGLRenderer({antialias: true, preserveDrawingBuffer: true});
    this.renderer.setPixelRatio(1);
    this.renderer.setClearColor("#ffffff");
    container.appendChild(this.renderer.domElement);
    this.labels = document.createElement("div");
    this.labels.className = "routh-labels";
    container.appendChild(this.labels);
    this.scene = new THREE.Scene();
    this.world = new THREE.Group();  // the ground's frame: obstacles and bodies
    this.scene.add(this.world);
    this.groundMoves = Boolean(data.ground);
    this.bodies = [];
    this.contactDots = [];
    if (this.planar)
      this.buildPlanar();
    else
      this.buildSpatial();
    this.resize();
  }

  get canvas() {
    return this.renderer.domElement;
  }

  // ---- planar ----------------------------------------------------------------------------

  buildPlanar() {
    const data = this.data;
    // the box holding every body at every frame, then the camera around it
    let [x0, x1, y0, y1] = [Infinity, -Infinity, Infinity, -Infinity];
    const shift = this.groundShift.bind(this);
    for (const body of data.bodies) {
      const r = planarReach(body);
      for (let i = 0; i < body.x.length; i++) {
        if (body.x[i] === null || body.y[i] === null) continue;
        // where it is drawn with the ground still and with the ground moving
        for (const [dx, dy] of [[0, 0], shift(i)]) {
          x0 = Math.min(x0, body.x[i] + dx - r);
          x1 = Math.max(x1, body.x[i] + dx + r);
          y0 = Math.min(y0, body.y[i] + dy - r);
          y1 = Math.max(y1, body.y[i] + dy + r);
        }
      }
    }
    this.extent = {x0, x1, y0, y1};
    this.camera = new THREE.OrthographicCamera(-1, 1, 1, -1, -10, 10);
    this.fitCamera(...this.canvasSize());  // before the sizes in pixels below are set
    const reach = 50 * Math.max(x1 - x0, y1 - y0, 1e-3);
    for (const obstacle of data.obstacles) this.world.add(this.halfPlane(obstacle, reach, x1 - x0));
    const pixel = this.metresPerPixel;
    for (const body of data.bodies) {
      const group = new THREE.Group();
      const colour = new THREE.Color(body.colour);
      const material = new THREE.MeshBasicMaterial({color: colour});
      const shape = body.shape;
      let outline = null;
      if (shape && shape.type === "disk") {
        const mesh = disk(shape.radius, colour, 0);
        mesh.position.set(shape.centre[0], shape.centre[1], 0);
        group.add(mesh);
        // a radius, so that the reader sees it turn
        const spoke = new THREE.Mesh(
            barGeometry(shape.centre, [shape.centre[0] + shape.radius, shape.centre[1]], pixel * 2),
            new THREE.MeshBasicMaterial({color: "#ffffff"}),
        );
        spoke.position.z = 0.01;
        group.add(spoke);
      } else if (shape && shape.vertices.length > 2) {
        const points = shape.vertices.map((v) => new THREE.Vector2(v[0], v[1]));
        group.add(new THREE.Mesh(new THREE.ShapeGeometry(new THREE.Shape(points)), material));
        const loop = new THREE.BufferGeometry().setFromPoints(
            shape.vertices.map((v) => new THREE.Vector3(v[0], v[1], 0.01)),
        );
        outline = new THREE.LineLoop(loop, new THREE.LineBasicMaterial({color: OUTLINE_COLOUR}));
        group.add(outline);
      } else {
        // a rod (segment), or a link without a shape: bars from its joint point
        const ends = shape ? [shape.vertices[0], shape.vertices[1]] : body.points;
        const from = ends[0];
        const to = shape ? [ends[1]] : ends.slice(1);
        for (const point of to)
          group.add(new THREE.Mesh(barGeometry(from, point, pixel * LINE_PIXELS), material));
      }
      this.world.add(group);
      this.bodies.push({data: body, group, outline, reach: planarReach(body)});
    }
    for (const joint of data.joints) {
      const owner = this.bodies.find((b) => b.data.name === joint.body);
      const pin = disk(pixel * 5, OUTLINE_COLOUR, 0.02);
      pin.add(disk(pixel * 3, "#ffffff", 0.001));
      pin.position.set(joint.point[0], joint.point[1], 0.02);
      owner.group.add(pin);
    }
    for (const contact of data.contacts) {
      const owner = this.bodies.find((b) => b.data.name === contact.body);
      const dot = disk(pixel * 2.5, OUTLINE_COLOUR, 0.03);
      dot.position.set(contact.point[0], contact.point[1], 0.03);
      const flash = disk(pixel * 6, IMPACT_COLOUR, -0.005);
      flash.visible = false;
      dot.add(flash);
      owner.group.add(dot);
      this.contactDots.push({index: contact.index, flash});
    }
    this.makeLabels();
  }

  // A half-plane: its solid side shaded, its boundary drawn, with ticks along it that show the
  // ground move.
  halfPlane(obstacle, reach, size) {
    const [px, py] = obstacle.point;
    const [nx, ny] = obstacle.normal;
    const [tx, ty] = [ny, -nx];
    const corner = (s, d) => new THREE.Vector2(
        px + s * reach * tx - d * reach * nx, py + s * reach * ty - d * reach * ny);
    const group = new THREE.Group();
    const solid = new THREE.Shape([corner(-1, 0), corner(1, 0), corner(1, 1), corner(-1, 1)]);
    const mesh = new THREE.Mesh(
        new THREE.ShapeGeometry(solid), new THREE.MeshBasicMaterial({color: GROUND_COLOUR}));
    mesh.position.z = -0.1;
    group.add(mesh);
    const edge = new THREE.BufferGeometry().setFromPoints([
      new THREE.Vector3(px - reach * tx, py - reach * ty, -0.05),
      new THREE.Vector3(px + reach * tx, py + reach * ty, -0.05),
    ]);
    group.add(new THREE.Line(edge, new THREE.LineBasicMaterial({color: GROUND_LINE_COLOUR})));
    const spacing = 10 ** Math.floor(Math.log10(size || 1)) / 2;
    const depth = spacing / 3;
    const ticks = [];
    for (let s = -reach; s <= reach; s += spacing) {
      const [ax, ay] = [px + s * tx, py + s * ty];
      ticks.push(
          new THREE.Vector3(ax, ay, -0.05),
          new THREE.Vector3(ax - depth * (nx + tx), ay - depth * (ny + ty), -0.05));
    }
    const hatch = new THREE.BufferGeometry().setFromPoints(ticks);
    group.add(new THREE.LineSegments(hatch, new THREE.LineBasicMaterial({color: "#9a9a9a"})));
    return group;
  }

  // The orthographic camera around the extent, square pixels, for a canvas of w x h.
  fitCamera(w, h) {
    const {x0, x1, y0, y1} = this.extent;
    const cx = (x0 + x1) / 2;
    const cy = (y0 + y1) / 2;
    const span = Math.max((x1 - x0) / w, (y1 - y0) / h) * (1 + 2 * MARGIN);
    this.metresPerPixel = span;
    Object.assign(this.camera, {
      left: cx - (span * w) / 2,
      right: cx + (span * w) / 2,
      bottom: cy - (span * h) / 2,
      top: cy + (span * h) / 2
    });
    this.camera.updateProjectionMatrix();
  }

  // ---- in space --------------------------------------------------------------------------

  buildSpatial() {
    const data = this.data;
    const scene = this.scene;
    scene.add(new THREE.AmbientLight("#ffffff", 1.6));
    const sun = new THREE.DirectionalLight("#ffffff", 2.0);
    sun.position.set(3, -4, 6);
    scene.add(sun);
    const low = new THREE.Vector3(Infinity, Infinity, Infinity);
    const high = new THREE.Vector3(-Infinity, -Infinity, -Infinity);
    for (const body of data.bodies) {
      const r = spatialReach(body.shape);
      for (let i = 0; 3 * i < body.p.length; i++) {
        const p = new THREE.Vector3(body.p[3 * i], body.p[3 * i + 1], body.p[3 * i + 2]);
        // where it is drawn with the ground still and with the ground moving
        for (const q of [p, p.clone().add(new THREE.Vector3(...this.groundShift(i)))]) {
          low.min(q.clone().subScalar(r));
          high.max(q.clone().addScalar(r));
        }
      }
    }
    const centre = low.clone().add(high).multiplyScalar(0.5);
    const size = Math.max(high.clone().sub(low).length(), 1e-3);
    this.camera = new THREE.PerspectiveCamera(35, 640 / 420, size / 100, size * 100);
    this.camera.up.set(0, 0, 1);
    this.camera.position.copy(centre).add(new THREE.Vector3(0.9, -1.6, 0.8).multiplyScalar(size));
    this.controls = new OrbitControls(this.camera, this.renderer.domElement);
    this.controls.target.copy(centre);
    this.controls.update();  // points the camera at the target
    this.controls.addEventListener("change", () => this.render());
    for (const obstacle of data.obstacles) {
      const plane = new THREE.Mesh(
          new THREE.PlaneGeometry(size * 6, size * 6),
          new THREE.MeshLambertMaterial({color: GROUND_COLOUR, side: THREE.DoubleSide}),
      );
      const grid = new THREE.GridHelper(size * 6, 24, GROUND_LINE_COLOUR, "#b0b0b0");
      grid.rotation.x = Math.PI / 2;  // GridHelper lies in xz: turn it into the plane's xy
      grid.position.z = 1e-4 * size;
      plane.add(grid);
      const normal = new THREE.Vector3(...obstacle.normal).normalize();
      plane.quaternion.setFromUnitVectors(new THREE.Vector3(0, 0, 1), normal);
      const point = new THREE.Vector3(...obstacle.point);
      // the patch's centre: the point of the plane nearest the bodies' middle
      plane.position.copy(centre).sub(
          normal.clone().multiplyScalar(centre.clone().sub(point).dot(normal)));
      this.world.add(plane);
    }
    for (const body of data.bodies) {
      const shape = body.shape;
      let geometry;
      const offset = new THREE.Vector3();
      if (shape.type === "box")
        geometry = new THREE.BoxGeometry(...shape.size);
      else if (shape.type === "cylinder") {
        geometry = new THREE.CylinderGeometry(shape.radius, shape.radius, shape.height, 48);
        geometry.rotateX(Math.PI / 2);  // three's cylinder stands along y; routh's along body z
      } else {
        geometry = new THREE.SphereGeometry(shape.radius, 32, 16);
        offset.set(...(shape.centre || [0, 0, 0]));
      }
      const material = new THREE.MeshLambertMaterial({color: body.colour});
      const mesh = new THREE.Mesh(geometry, material);
      mesh.position.copy(offset);
      const edges = new THREE.LineSegments(
          new THREE.EdgesGeometry(geometry, 20),
          new THREE.LineBasicMaterial({color: OUTLINE_COLOUR}),
      );
      mesh.add(edges);
      if (shape.type === "sphere") {
        // two great circles fixed in the ball, so that the reader sees it turn
        for (const turn of [0, Math.PI / 2]) {
          const ring = new THREE.Mesh(
              new THREE.TorusGeometry(shape.radius * 1.002, shape.radius * 0.02, 6, 48),
              new THREE.MeshBasicMaterial({color: OUTLINE_COLOUR}),
          );
          ring.rotation.x = turn;
          mesh.add(ring);
        }
      }
      const group = new THREE.Group();
      group.add(mesh);
      this.world.add(group);
      this.bodies.push({data: body, group, material, reach: spatialReach(shape)});
    }
    // contact points (a box's corners) as small dark balls, each with a red one to flash
    for (const contact of data.contacts) {
      const owner = this.bodies.find((b) => b.data.name === contact.body);
      const radius = owner.reach * 0.04;
      const dot = new THREE.Mesh(
          new THREE.SphereGeometry(radius, 12, 8),
          new THREE.MeshBasicMaterial({color: OUTLINE_COLOUR}));
      dot.position.set(...contact.point);
      const flash = new THREE.Mesh(
          new THREE.SphereGeometry(radius * 2.5, 16, 12),
          new THREE.MeshBasicMaterial({color: IMPACT_COLOUR}));
      flash.visible = false;
      dot.add(flash);
      owner.group.add(dot);
      this.contactDots.push({index: contact.index, flash});
    }
    this.makeLabels();
  }

  // ---- both ------------------------------------------------------------------------------

  makeLabels() {
    for (const body of this.bodies) {
      const label = document.createElement("div");
      label.className = "routh-label";
      label.textContent = body.data.name;
      this.labels.appendChild(label);
      body.label = label;
    }
  }

  // The canvas's width and height [px]: its container's width, at most 560 px high.
  canvasSize() {
    const w = Math.max(320, this.container.clientWidth);
    return [w, Math.round(Math.min(Math.max(300, w * 0.6), 560))];
  }

  resize() {
    const [w, h] = this.canvasSize();
    this.width = w;
    this.height = h;
    this.renderer.setSize(w, h);
    if (this.planar)
      this.fitCamera(w, h);
    else {
      this.camera.aspect = w / h;
      this.camera.updateProjectionMatrix();
    }
  }

  // Puts every body at frame i; `hits` are the contacts (indices) of impacts being flashed.
  show(i, hits) {
    this.world.position.set(...(this.groundMoves ? this.groundShift(i) : [0, 0, 0]));
    for (const body of this.bodies) {
      const d = body.data;
      // a pose the file holds as NaN (a run that ended non_finite_state) is not drawn
      body.group.visible = (this.planar ? d.x[i] : d.p[3 * i]) !== null;
      if (this.planar) {
        body.group.position.set(d.x[i], d.y[i], 0);
        body.group.rotation.z = d.phi[i];
      } else {
        body.group.position.set(d.p[3 * i], d.p[3 * i + 1], d.p[3 * i + 2]);
        const q = d.quaternion;
        body.group.quaternion.set(q[4 * i + 1], q[4 * i + 2], q[4 * i + 3], q[4 * i]);
      }
    }
    const names = this.data.contact_bodies;
    const hitBodies = new Set([...hits].map((k) => names[k]));
    for (const c of this.contactDots) c.flash.visible = hits.has(c.index);
    for (const body of this.bodies) {
      const hit = hitBodies.has(body.data.name);
      if (body.outline) body.outline.material.color.set(hit ? IMPACT_COLOUR : OUTLINE_COLOUR);
      if (body.material) body.material.emissive?.set(hit ? "#7a0000" : "#000000");
      body.label.classList.toggle("routh-hit", hit);
    }
    this.render();
  }

  render() {
    this.renderer.render(this.scene, this.camera);
    // each name to the right of its body, clear of it (past its reach along the screen's x),
    // and moved down below the names already placed that it would cover
    const across = new THREE.Vector3().setFromMatrixColumn(this.camera.matrixWorld, 0);
    const placed = [];
    for (const body of this.bodies) {
      const g = body.group.position;
      const at = this.worldToPixel(g.x, g.y, g.z);
      const edge = g.clone().addScaledVector(across, body.reach);
      const box = {
        x: Math.round(at.x + Math.abs(this.worldToPixel(edge.x, edge.y, edge.z).x - at.x) + 8),
        y: Math.round(at.y - 10),
        w: body.label.offsetWidth,
        h: body.label.offsetHeight,
      };
      const covers = (other) => box.x < other.x + other.w && other.x < box.x + box.w &&
          box.y < other.y + other.h && other.y < box.y + box.h;
      for (let other = placed.find(covers); other; other = placed.find(covers)) {
        box.y = other.y + other.h + 1;
      }
      placed.push(box);
      body.label.style.transform = `translate(${box.x}px, ${box.y}px)`;
    }
  }

  // The ground's displacement u_g [m] at frame i ([0, 0, 0] without an excitation).
  groundShift(i) {
    const ground = this.data.ground;
    if (!ground) return [0, 0, 0];
    return [0, 1, 2].map((k) => (k < ground.length ? ground[k][i] : 0));
  }

  // A point of the ground's frame [m] (as /q gives it) in the canvas's pixels (x right, y down,
  // from its top-left corner), where it is drawn at the frame shown.
  worldToPixel(x, y, z = 0) {
    const v = new THREE.Vector3(x, y, z).add(this.world.position).project(this.camera);
    return {x: ((v.x + 1) / 2) * this.width, y: ((1 - v.y) / 2) * this.height};
  }
}
