// Marks the page as scripted before it is drawn (styles hide no-script fallbacks under html.js). Loaded as a file, in
// the head and without defer, because the Content-Security-Policy allows no inline script.
document.documentElement.classList.add("js");
