// Runs inline, before any module script, in every browser that runs script at all. It checks the
// features spec section 7 lists; if one is missing it shows the "Loading" status and fetches the
// polyfills from our own origin, retrying every 500 ms, and only then lets entry.client hydrate.
// Written in ES5 on purpose: it must run in the very browsers that lack these features.
// The status's words live in its data-text until shown (text browsers ignore `hidden`), and are
// taken away again before hydration, so React finds the empty status the server sent.
const MAX_ATTEMPTS = 20;

export const POLYFILL_LOADER = `(function(){
var w=window,m=[],n=0;
if(typeof Promise==="undefined")m.push("Promise");
if(!w.fetch)m.push("fetch");
if(typeof Intl==="undefined")m.push("Intl");
if(!w.requestAnimationFrame)m.push("requestAnimationFrame");
if(!String.prototype.startsWith)m.push("String.prototype.startsWith");
if(!String.prototype.endsWith)m.push("String.prototype.endsWith");
if(!String.prototype.padStart)m.push("String.prototype.padStart");
if(typeof URLSearchParams==="undefined")m.push("URLSearchParams");
function ready(){if(s){s.hidden=true;s.textContent="";}w.__polyfillsReady=true;if(w.__onPolyfillsReady)w.__onPolyfillsReady();}
if(!m.length){ready();return;}
var s=document.getElementById("loading-status");if(s){s.appendChild(document.createTextNode(s.getAttribute("data-text")));s.hidden=false;}
function load(){
var e=document.createElement("script");
e.src="/polyfills.js?features="+encodeURIComponent(m.join(","));
e.onload=ready;
e.onerror=function(){e.parentNode.removeChild(e);if(++n<${MAX_ATTEMPTS})setTimeout(load,500);else if(s)s.hidden=true;};
document.head.appendChild(e);
}
load();
})();`;
