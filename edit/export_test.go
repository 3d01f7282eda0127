package edit

// Components gives the external tests the component names.
var Components = components
