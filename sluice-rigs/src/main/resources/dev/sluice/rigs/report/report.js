// Renders the charts of the Sluice bench report from the data embedded in the page.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("bench-data").textContent);
  window.BENCH_REPORT = data;
  data.charts.forEach(function (chart) {
    var el = document.getElementById("chart-" + chart.id);
    if (!el) {
      console.error("no element for chart " + chart.id);
      return;
    }
    var instance = echarts.init(el, null, { renderer: "canvas" });
    instance.setOption(chart.option);
  });
  window.addEventListener("resize", function () {
    data.charts.forEach(function (chart) {
      var el = document.getElementById("chart-" + chart.id);
      var instance = el && echarts.getInstanceByDom(el);
      if (instance) {
        instance.resize();
      }
    });
  });
})();
