// Live regions ([data-live], templates/partials/live.html): htmx asks for the region's
// fragment every 5 s. This sends the ETag of the copy shown (If-None-Match), so that an
// unchanged fragment is a 304 with no body, which htmx does not swap (the htmx-config in
// base.html); a changed one is a 200 whose ETag is kept for the next poll. While the tab is
// hidden, no poll is sent; when it shows again, the regions are asked at once.
document.addEventListener("htmx:configRequest", (event) => {
  const region = event.detail.elt;
  if (!region.matches("[data-live]")) {
    return;
  }
  if (document.hidden) {
    event.preventDefault();
    return;
  }
  if (region.dataset.etag) {
    event.detail.headers["If-None-Match"] = region.dataset.etag;
  }
});

document.addEventListener("htmx:afterRequest", (event) => {
  const region = event.detail.elt;
  const xhr = event.detail.xhr;
  if (region.matches("[data-live]") && xhr && xhr.status === 200) {
    const etag = xhr.getResponseHeader("ETag");
    if (etag) {
      region.dataset.etag = etag;
    }
  }
});

// A poll answered by another page (a redirect to the login page: the session ended) is not
// swapped into the region.
document.addEventListener("htmx:beforeSwap", (event) => {
  const xhr = event.detail.xhr;
  if (event.detail.elt.matches("[data-live]") && xhr && !xhr.responseURL.includes("live=1")) {
    event.detail.shouldSwap = false;
  }
});

document.addEventListener("visibilitychange", () => {
  if (!document.hidden) {
    document.querySelectorAll("[data-live]").forEach((region) => {
      window.htmx.trigger(region, "live-refresh");
    });
  }
});
